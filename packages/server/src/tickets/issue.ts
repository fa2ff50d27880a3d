/**
 * Issue one-time login ticket (operation issueLoginTicket), in separate steps so each dependency's failure answers its
 * own code: webinar metadata (PUBLIC_METADATA_UNAVAILABLE), watch domain (VIEWER_DOMAIN_UNAVAILABLE), then one
 * transaction on viewer and ticket storage (AUTH_DEPENDENCY_UNAVAILABLE): the `issue_login_ticket` function of
 * migration 0002 locks the viewer row, marks the viewer's unused ticket SUPERSEDED (whatever webinar it was for) and
 * inserts the new one, in one statement. The partial unique index `login_tickets_one_unused_per_viewer` makes "one
 * valid ticket per viewer" a database fact.
 */
import { sql, type Kysely } from "kysely";
import type { LoginTicket } from "@org/webinar-types";
import type { Database } from "../db/schema";
import { dependencyStep } from "../dependency";
import { ServiceError } from "../errors";
import { rfc3339 } from "../http/rfc3339";
import type { Runtime } from "../runtime";
import { newToken } from "./token";
import type { WatchDomainResolver } from "./watch-domain";
import type { WebinarMetadataSource } from "./webinar-metadata";

export interface IssueTicketDependencies {
  db: Kysely<Database>;
  webinars: WebinarMetadataSource;
  watchDomains: WatchDomainResolver;
  ticketTtlSeconds: number;
  runtime: Runtime;
}

export interface IssueTicketInput {
  merchantId: string;
  uid: number;
  ticketCode: string;
}

/** Every login ticket starts with this prefix. */
export const LOGIN_TICKET_PREFIX = "lt_";

function webinarNotFound(): ServiceError {
  return new ServiceError("WEBINAR_NOT_FOUND", "no published webinar with this ticketCode in this merchant");
}

/** `<origin>/w/<ticketCode>#login_ticket=<ticket>`: the ticket rides in the fragment, never in the query (issueLoginTicket: loginUrl). */
export function loginUrl(origin: string, ticketCode: string, ticket: string): string {
  return `${origin}/w/${encodeURIComponent(ticketCode)}#login_ticket=${ticket}`;
}

/**
 * @example
 * const { loginUrl } = await issueLoginTicket({ merchantId, uid: 4821937, ticketCode: "wbn-7Hq2kP9x" }, deps);
 */
export async function issueLoginTicket(input: IssueTicketInput, deps: IssueTicketDependencies): Promise<LoginTicket> {
  const webinar = await dependencyStep(
    "PUBLIC_METADATA_UNAVAILABLE",
    "webinar metadata is temporarily unavailable",
    () => deps.webinars.find(input.merchantId, input.ticketCode),
  );
  if (webinar === null || webinar.status !== "PUBLISHED") throw webinarNotFound();
  const origin = await dependencyStep("VIEWER_DOMAIN_UNAVAILABLE", "the watch domain is temporarily unavailable", () =>
    deps.watchDomains.originFor(input.merchantId),
  );

  // Seconds precision: `expiresAt` is authoritative (LoginTicket.expiresAt), so the stored expiry is exactly what the
  // caller sees.
  const issuedAt = deps.runtime.now();
  const expiresAt = Math.floor(issuedAt / 1000) * 1000 + deps.ticketTtlSeconds * 1000;
  const { token, hash } = newToken(LOGIN_TICKET_PREFIX, deps.runtime);
  const issued = await dependencyStep(
    "AUTH_DEPENDENCY_UNAVAILABLE",
    "ticket storage is temporarily unavailable",
    async () => {
      const issue = sql<boolean>`issue_login_ticket(${input.merchantId}, ${input.uid}, ${hash}, ${webinar.id}, ${new Date(issuedAt)}, ${new Date(expiresAt)})`;
      // A call of the migration's SQL function: raw SQL, the builder cannot call a function without a table.
      const row = await sql<{ issued: boolean }>`select ${issue} as issued`.execute(deps.db);
      return row.rows[0]?.issued === true;
    },
  );
  if (!issued) throw new ServiceError("VIEWER_NOT_FOUND", "no viewer with this uid in this merchant");
  return { loginTicket: token, loginUrl: loginUrl(origin, input.ticketCode, token), expiresAt: rfc3339(expiresAt) };
}
