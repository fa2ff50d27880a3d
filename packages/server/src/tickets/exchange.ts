/**
 * The watch page's ticket exchange (`POST /w/api/session`, README.md): a ticket becomes a watch session exactly once.
 * One UPDATE consumes it only if it is unused, unexpired and was issued for this ticketCode; under concurrency
 * the row lock makes every other exchange re-check `state = 'UNUSED'` after the winner commits, so exactly one
 * succeeds. The session is created in the same transaction.
 */
import type { Kysely } from "kysely";
import type { Database } from "../db/schema";
import { dependencyStep } from "../dependency";
import { ServiceError } from "../errors";
import type { Runtime } from "../runtime";
import { hashToken, newToken } from "./token";

export interface ExchangeDependencies {
  db: Kysely<Database>;
  sessionTtlSeconds: number;
  runtime: Runtime;
}

export interface WatchSession {
  uid: number;
  merchantId: string;
  ticketCode: string;
  /** The cookie value; only its hash is stored. */
  sessionToken: string;
  expiresAtMs: number;
}

/**
 * Why a ticket presented with its own webinar's code cannot be exchanged. Only the holder of the ticket itself
 * learns it (the lookup is by the ticket's hash), so it tells nothing about any other ticket: the watch page uses
 * it to say "this link has already been used" instead of a bare "invalid".
 */
export type InvalidTicketReason = "USED" | "EXPIRED" | "SUPERSEDED";

/**
 * LOGIN_TICKET_INVALID: one code for every ticket that cannot be exchanged. `details.reason` is present only for
 * a real ticket of that webinar (see InvalidTicketReason); unknown tickets and other webinars' get none.
 */
export function invalidTicket(reason?: InvalidTicketReason): ServiceError {
  return new ServiceError(
    "LOGIN_TICKET_INVALID",
    "the login ticket is invalid, expired, already used or for another webinar",
    reason === undefined ? undefined : { reason },
  );
}

/**
 * @example
 * const session = await exchangeLoginTicket({ ticketCode, loginTicket }, deps); // throws LOGIN_TICKET_INVALID
 */
export async function exchangeLoginTicket(
  input: { ticketCode: string; loginTicket: string },
  deps: ExchangeDependencies,
): Promise<WatchSession> {
  const now = deps.runtime.now();
  const session = newToken("ws_", deps.runtime);
  const expiresAtMs = now + deps.sessionTtlSeconds * 1000;
  return dependencyStep("AUTH_DEPENDENCY_UNAVAILABLE", "ticket storage is temporarily unavailable", () =>
    deps.db.transaction().execute(async (trx) => {
      const consumed = await trx
        .updateTable("login_tickets as t")
        .from("webinars as w")
        .set({ state: "CONSUMED", consumed_at: new Date(now) })
        .whereRef("w.id", "=", "t.webinar_id")
        .where("t.ticket_hash", "=", hashToken(input.loginTicket))
        .where("t.state", "=", "UNUSED")
        .where("t.expires_at", ">", new Date(now))
        .where("w.ticket_code", "=", input.ticketCode)
        .returning(["t.merchant_id", "t.uid", "t.webinar_id"])
        .executeTakeFirst();
      if (consumed === undefined) {
        const known = await trx
          .selectFrom("login_tickets as t")
          .innerJoin("webinars as w", "w.id", "t.webinar_id")
          .select(["t.state", "t.expires_at"])
          .where("t.ticket_hash", "=", hashToken(input.loginTicket))
          .where("w.ticket_code", "=", input.ticketCode)
          .executeTakeFirst();
        if (known === undefined) throw invalidTicket();
        throw invalidTicket(
          known.state === "CONSUMED" ? "USED" : known.state === "SUPERSEDED" ? "SUPERSEDED" : "EXPIRED",
        );
      }
      await trx
        .insertInto("watch_sessions")
        .values({
          session_hash: session.hash,
          merchant_id: consumed.merchant_id,
          uid: consumed.uid,
          webinar_id: consumed.webinar_id,
          created_at: new Date(now),
          expires_at: new Date(expiresAtMs),
        })
        .execute();
      return {
        uid: consumed.uid,
        merchantId: consumed.merchant_id,
        ticketCode: input.ticketCode,
        sessionToken: session.token,
        expiresAtMs,
      };
    }),
  );
}
