/**
 * `POST /w/api/session` (admin-contract.md): the watch page trades the ticket from its URL fragment for a
 * session. Success: 200 `{requestId, uid, ticketCode, expiresAt}` and the session cookie (HttpOnly, SameSite=Lax,
 * Path=/w, Secure on https). Anything wrong with the ticket (unknown, consumed, expired, superseded, for another
 * webinar): 401 LOGIN_TICKET_INVALID, one answer for all so a caller learns nothing about other tickets.
 */
import { ServiceError } from "../errors";
import type { AppServices } from "../services";
import { exchangeLoginTicket } from "../tickets/exchange";
import { rfc3339 } from "../tickets/issue";

/** Name of the watch-page session cookie. */
export const SESSION_COOKIE = "webinar_session";

/** The exchange's request body, or REQUEST_INVALID. Bounded so a junk body costs nothing. */
export function parseExchangeBody(text: string): { ticketCode: string; loginTicket: string } {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  const { ticketCode, loginTicket, ...rest } = (typeof body === "object" && body !== null && !Array.isArray(body) ? body : { invalid: true }) as Record<string, unknown>;
  if (
    typeof ticketCode !== "string" ||
    typeof loginTicket !== "string" ||
    Object.keys(rest).length > 0 ||
    !/^[A-Za-z0-9_-]{1,64}$/.test(ticketCode) ||
    loginTicket.length === 0 ||
    loginTicket.length > 256
  ) {
    throw new ServiceError("REQUEST_INVALID", "the body must be {ticketCode, loginTicket}, two strings");
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
  const session = await exchangeLoginTicket(body, { db: services.db, sessionTtlSeconds: services.config.sessionTtlSeconds, runtime: services.runtime });
  return {
    body: { uid: session.uid, ticketCode: session.ticketCode, expiresAt: rfc3339(session.expiresAtMs) },
    setCookie: sessionCookie(session.sessionToken, services.config.sessionTtlSeconds, secureCookie),
  };
}
