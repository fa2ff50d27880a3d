/** One log line per request: id, method, path (no query), status, duration, operation, merchant, error code. */
import type { Context, MiddlewareHandler } from "hono";
import { defaultRequestId } from "@org/webinar-validator";
import type { Logger } from "../log";
import type { AppEnv } from "./app-env";

/** The path for the access log, without query string (a query may carry anything a client put there). */
export function loggedPath(c: Context<AppEnv>): string {
  const target = c.env?.incoming?.url ?? new URL(c.req.url).pathname;
  const end = target.search(/[?#]/);
  return (end < 0 ? target : target.slice(0, end)).slice(0, 256);
}

/**
 * Gives the request its one id (`c.get("requestId")`, which the validator's middleware uses too), puts it in
 * `X-Request-Id` of the answer unless the answer carries it already, and logs the request once answered.
 */
export function accessLog(logger: Logger): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const started = performance.now();
    const requestId = defaultRequestId();
    c.set("requestId", requestId);
    await next();
    if (!c.res.headers.has("X-Request-Id")) c.res.headers.set("X-Request-Id", requestId);
    logger.info(
      {
        requestId,
        method: c.req.method,
        path: loggedPath(c),
        status: c.res.status,
        durationMs: Math.round((performance.now() - started) * 10) / 10,
        operationId: c.get("operationId"),
        merchantId: c.get("merchantId"),
        errorCode: c.get("errorCode"),
      },
      "request",
    );
  };
}
