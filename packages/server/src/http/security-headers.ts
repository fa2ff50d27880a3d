/**
 * Headers every answer of the server carries, whichever route or failure produced it: `nosniff`, so a browser
 * never reads a JSON error as a script or a page, and `no-store`, so no cache keeps an answer that may hold a
 * login URL, a secret or a viewer's data.
 */
import type { MiddlewareHandler } from "hono";

export const SECURITY_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  "X-Content-Type-Options": "nosniff",
  "Cache-Control": "no-store",
});

/** Sets {@link SECURITY_HEADERS} on the answer of every request. */
export const securityHeaders: MiddlewareHandler = async (c, next) => {
  await next();
  for (const [name, value] of Object.entries(SECURITY_HEADERS)) c.res.headers.set(name, value);
};
