/**
 * Issue one-time login ticket (spec §3.1, §4.4), in separate steps so each dependency's failure answers its own
 * code: webinar metadata (PUBLIC_METADATA_UNAVAILABLE), watch domain (VIEWER_DOMAIN_UNAVAILABLE), then one
 * transaction on viewer and ticket storage (AUTH_DEPENDENCY_UNAVAILABLE): the `issue_login_ticket` function of
 * migration 0002 locks the viewer row, marks the viewer's unused ticket SUPERSEDED (whatever webinar it was
 * for) and inserts the new one, in one statement. The partial unique index `login_tickets_one_unused_per_viewer`
 * makes "one valid ticket per viewer" a database fact.
 */
import type { Kysely } from "kysely";
import type { LoginTicket } from "@org/webinar-types";
import { statement } from "../db/compiled";
import type { Database } from "../db/schema";
import { dependencyStep } from "../dependency";
import { ServiceError } from "../errors";
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

// One statement, one transaction: lock the viewer, supersede its unused ticket, insert (migration 0002).
const issueTicket = statement<{ issued: boolean }>("select issue_login_ticket($1, $2, $3, $4, $5, $6) as issued");

/** RFC 3339 UTC without milliseconds, e.g. `2026-11-21T09:31:00Z`. */
export function rfc3339(milliseconds: number): string {
  return new Date(Math.floor(milliseconds / 1000) * 1000).toISOString().replace(".000Z", "Z");
}

/** `<origin>/w/<ticketCode>#login_ticket=<ticket>`: the ticket rides in the fragment, never in the query (§4.4 rule 3). */
export function loginUrl(origin: string, ticketCode: string, ticket: string): string {
  return `${origin}/w/${encodeURIComponent(ticketCode)}#login_ticket=${ticket}`;
}

/**
 * @example
 * const { loginUrl } = await issueLoginTicket({ merchantId, uid: 4821937, ticketCode: "wbn-7Hq2kP9x" }, deps);
 */
export async function issueLoginTicket(input: IssueTicketInput, deps: IssueTicketDependencies): Promise<LoginTicket> {
  const webinar = await dependencyStep("PUBLIC_METADATA_UNAVAILABLE", "webinar metadata is temporarily unavailable", () =>
    deps.webinars.find(input.merchantId, input.ticketCode),
  );
  if (webinar === null || webinar.status !== "PUBLISHED") {
    throw new ServiceError("WEBINAR_NOT_FOUND", "no published webinar with this ticketCode in this merchant");
  }
  const origin = await dependencyStep("VIEWER_DOMAIN_UNAVAILABLE", "the watch domain is temporarily unavailable", () =>
    deps.watchDomains.originFor(input.merchantId),
  );

  // Seconds precision: `expiresAt` is authoritative (§3.1), so the stored expiry is exactly what the caller sees.
  const issuedAt = deps.runtime.now();
  const expiresAt = Math.floor(issuedAt / 1000) * 1000 + deps.ticketTtlSeconds * 1000;
  const { token, hash } = newToken("lt_", deps.runtime);
  const issued = await dependencyStep("AUTH_DEPENDENCY_UNAVAILABLE", "ticket storage is temporarily unavailable", async () => {
    const [row] = await issueTicket(deps.db, [input.merchantId, input.uid, hash, webinar.id, new Date(issuedAt), new Date(expiresAt)]);
    return row?.issued === true;
  });
  if (!issued) throw new ServiceError("VIEWER_NOT_FOUND", "no viewer with this uid in this merchant");
  return { loginTicket: token, loginUrl: loginUrl(origin, input.ticketCode, token), expiresAt: rfc3339(expiresAt) };
}
