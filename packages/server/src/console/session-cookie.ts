/**
 * The console's session cookie `webinar_console` (console-openapi.yaml, security scheme `ConsoleSession`): HttpOnly
 * (the page's script never reads it), SameSite=Strict (no other site's page sends it), Path=/console, Secure
 * whenever the console is served over https. It holds the session token; the server keeps only its hash.
 */
import { generateCookie } from "hono/cookie";

export const CONSOLE_COOKIE = "webinar_console";

/** The `Set-Cookie` value that stores `token` for `maxAgeSeconds`. */
export function sessionCookie(token: string, maxAgeSeconds: number, secure: boolean): string {
  return generateCookie(CONSOLE_COOKIE, token, {
    maxAge: maxAgeSeconds,
    path: "/console",
    httpOnly: true,
    secure,
    sameSite: "Strict",
  });
}

/** The `Set-Cookie` value that removes the cookie. */
export function clearedSessionCookie(secure: boolean): string {
  return sessionCookie("", 0, secure);
}
