/**
 * `POST /w/api/session` (README.md "HTTP surface"): the watch page trades the ticket from its URL fragment for a
 * session. Success: 200 `{requestId, uid, ticketCode, expiresAt}` and the session cookie (HttpOnly, SameSite=Lax,
 * Path=/w, Secure on https). Anything wrong with the ticket (unknown, consumed, expired, superseded, for another
 * webinar): 401 LOGIN_TICKET_INVALID, one answer for all so a caller learns nothing about other tickets.
 */
import { parseJsonObjectBody } from "../http/json-object-body";
import type { AppServices } from "../services";
import { exchangeLoginTicket, invalidTicket } from "../tickets/exchange";
import { LOGIN_TICKET_PREFIX, rfc3339 } from "../tickets/issue";
import { TICKET_CODE_SHAPE } from "../tickets/ticket-code";
import { isTokenShaped } from "../tickets/token";

/** Name of the watch-page session cookie. */
export const SESSION_COOKIE = "webinar_session";

/**
 * The exchange's request body. A body that is not a JSON object (or has other fields) is 400 REQUEST_INVALID; a
 * ticket or ticketCode that is missing, not a string or not of the shape this server issues is 401
 * LOGIN_TICKET_INVALID, like any other ticket that cannot be exchanged, and costs no database round trip.
 */
export function parseExchangeBody(text: string): { ticketCode: string; loginTicket: string } {
  const { ticketCode, loginTicket } = parseJsonObjectBody(text, ["ticketCode", "loginTicket"]);
  if (
    typeof ticketCode !== "string" ||
    !TICKET_CODE_SHAPE.test(ticketCode) ||
    typeof loginTicket !== "string" ||
    !isTokenShaped(LOGIN_TICKET_PREFIX, loginTicket)
  ) {
    throw invalidTicket();
  }
  return { ticketCode, loginTicket };
}

export function sessionCookie(token: string, maxAgeSeconds: number, secure: boolean): string {
  return `${SESSION_COOKIE}=${token}; Path=/w; Max-Age=${maxAgeSeconds}; HttpOnly; SameSite=Lax${secure ? "; Secure" : ""}`;
}

/** Runs the exchange; returns the answer body and the Set-Cookie value. */
export async function exchangeForSession(
  body: { ticketCode: string; loginTicket: string },
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
    setCookie: sessionCookie(session.sessionToken, services.config.sessionTtlSeconds, secureCookie),
  };
}
