/**
 * The watch page's two cookies (watch-openapi.yaml, security schemes `WatchSession` and `AnonymousSubject`):
 * `webinar_session`, set by the ticket exchange, and `webinar_anon`, set by an anonymous subject's first playback
 * start. Both are HttpOnly (the page's script never reads them), SameSite=Lax, Path=/w, and Secure whenever the
 * page is served over https.
 */
import { generateCookie } from "hono/cookie";

/** The watch session of a registered viewer. */
export const SESSION_COOKIE = "webinar_session";
/** A system anonymous subject of the watch page. */
export const ANON_COOKIE = "webinar_anon";
/** An anonymous subject is kept for a year. */
export const ANON_COOKIE_MAX_AGE_SECONDS = 365 * 24 * 60 * 60;

/**
 * Whether the page is served over https: the request arrived on https, or the public watch origin is https (TLS
 * ends at a proxy in front of the server), so the cookies are marked Secure.
 */
export function isSecurePage(requestUrl: string, publicWatchOrigin: string | undefined): boolean {
  return new URL(requestUrl).protocol === "https:" || (publicWatchOrigin?.startsWith("https:") ?? false);
}

/**
 * A `Set-Cookie` value for one of the watch page's cookies.
 *
 * @example
 * watchCookie(ANON_COOKIE, "anon_x", ANON_COOKIE_MAX_AGE_SECONDS, true);
 * // "webinar_anon=anon_x; Max-Age=31536000; Path=/w; HttpOnly; Secure; SameSite=Lax"
 */
export function watchCookie(name: string, value: string, maxAgeSeconds: number, secure: boolean): string {
  return generateCookie(name, value, { maxAge: maxAgeSeconds, path: "/w", httpOnly: true, secure, sameSite: "Lax" });
}
