/**
 * Headers every answer of the server carries, whichever route or failure produced it: the validator's own answer
 * headers, `nosniff`, so a browser never reads a JSON error as a script or a page, and `no-store`, so no cache
 * keeps an answer that may hold a login URL, a secret or a viewer's data. The validator's rejections carry them
 * already; every other answer gets them here.
 */
import type { MiddlewareHandler } from "hono";
import { ANSWER_HEADERS } from "@org/webinar-validator";

const SECURITY_HEADERS = Object.entries(ANSWER_HEADERS);

/** Sets the security headers an answer lacks, on the answer of every request. */
export const securityHeaders: MiddlewareHandler = async (c, next) => {
  await next();
  for (const [name, value] of SECURITY_HEADERS) if (!c.res.headers.has(name)) c.res.headers.set(name, value);
};
