/**
 * `POST /w/api/session` (watch-openapi.yaml, exchangeLoginTicket): the watch page trades the ticket from its URL
 * fragment for a session. Success: 200 `{requestId, uid, ticketCode, expiresAt}` and the session cookie. Anything
 * wrong with the ticket (unknown, consumed, expired, superseded, for another webinar): 401 LOGIN_TICKET_INVALID,
 * one answer for all so a caller learns nothing about other tickets.
 */
import type { ValidationIssue } from "@org/webinar-validator";
import type { ServiceError } from "../errors";
import { invalidBody } from "../http/body-check";
import type { AppServices } from "../services";
import { exchangeLoginTicket, invalidTicket } from "../tickets/exchange";
import { rfc3339 } from "../http/rfc3339";
import { SESSION_COOKIE, watchCookie } from "./cookies";
import type { WatchBody } from "./request-body";

/**
 * What JSON Schema cannot say about the exchange's body: a body refused only for its ticket fields (`ticketCode`
 * or `loginTicket` missing, not a string, not of the shape this server issues) presents a ticket that cannot be
 * exchanged, like any other: 401 LOGIN_TICKET_INVALID, at no database round trip. A body refused as a whole (not
 * a JSON object) or with a field of its own is a malformed request: 400 REQUEST_INVALID.
 *
 * @example
 * refuseExchangeBody([{ pointer: "/loginTicket", rule: "pattern", message: "…" }]); // 401 LOGIN_TICKET_INVALID
 * refuseExchangeBody([{ pointer: "/extra", rule: "additionalProperties", message: "…" }]); // 400 REQUEST_INVALID
 */
export function refuseExchangeBody(issues: readonly ValidationIssue[]): ServiceError {
  const malformed = issues.some(({ pointer, rule }) => pointer === "" || rule === "additionalProperties");
  return malformed ? invalidBody([...issues]) : invalidTicket();
}

/** Runs the exchange; returns the answer body and the Set-Cookie value. */
export async function exchangeForSession(
  body: WatchBody<"exchangeLoginTicket">,
  services: AppServices,
  secureCookie: boolean,
): Promise<{ body: { uid: number; ticketCode: string; expiresAt: string }; setCookie: string }> {
  const session = await exchangeLoginTicket(body, {
    db: services.db,
    sessionTtlSeconds: services.config.sessionTtlSeconds,
    runtime: services.runtime,
  });
  return {
    body: { uid: session.uid, ticketCode: session.ticketCode, expiresAt: rfc3339(session.expiresAtMs) },
    setCookie: watchCookie(SESSION_COOKIE, session.sessionToken, services.config.sessionTtlSeconds, secureCookie),
  };
}
