/**
 * One record of each answered request, made in one place and handed to every observer: the access log, and
 * whatever else must see each request (metrics, the console's request log). Observers never measure on their
 * own, so a request's duration, status and error code are the same everywhere they appear.
 */
import type { Context, MiddlewareHandler } from "hono";
import { defaultRequestId } from "@org/webinar-validator";
import type { AppEnv } from "./app-env";

/** Which of the server's HTTP surfaces answered. */
export type Surface = "open" | "admin" | "watch" | "console" | "health";

/** What is known of a request once it is answered. */
export interface RequestObservation {
  requestId: string;
  surface: Surface;
  method: string;
  /** The request target's path, without query string, at most 256 characters. */
  path: string;
  status: number;
  /** Milliseconds from the request's arrival to its answer, unrounded. */
  durationMs: number;
  /** When the request arrived (epoch milliseconds). */
  startedAt: number;
  operationId: string | undefined;
  merchantId: string | undefined;
  /** The error code of a refused request; undefined on success. */
  errorCode: string | undefined;
}

/** Receives each observation synchronously; it must not throw and must not wait (queue work, never do it here). */
export type RequestObserver = (observation: RequestObservation, c: Context<AppEnv>) => void;

/** The path for logs and observers, without query string (a query may carry anything a client put there). */
export function observedPath(c: Context<AppEnv>): string {
  const target = c.env?.incoming?.url ?? new URL(c.req.url).pathname;
  const end = target.search(/[?#]/);
  return (end < 0 ? target : target.slice(0, end)).slice(0, 256);
}

/** The surface a path belongs to; everything the other surfaces do not claim is the Open API's. */
export function surfaceOf(path: string): Surface {
  if (path.startsWith("/admin/")) return "admin";
  if (path.startsWith("/w/")) return "watch";
  if (path === "/console" || path.startsWith("/console/")) return "console";
  if (path === "/healthz" || path === "/readyz") return "health";
  return "open";
}

/**
 * Gives the request its one id (`c.get("requestId")`, which the validator's middleware uses too), puts it in
 * `X-Request-Id` of the answer unless the answer carries it already, and hands the observation of the answered
 * request to each observer.
 */
export function observeRequests(observers: readonly RequestObserver[]): MiddlewareHandler<AppEnv> {
  return async function observeRequest(c, next) {
    const startedAt = Date.now();
    const started = performance.now();
    const requestId = defaultRequestId();
    c.set("requestId", requestId);
    await next();
    if (!c.res.headers.has("X-Request-Id")) c.res.headers.set("X-Request-Id", requestId);
    const path = observedPath(c);
    const observation: RequestObservation = {
      requestId,
      surface: surfaceOf(path),
      method: c.req.method,
      path,
      status: c.res.status,
      durationMs: performance.now() - started,
      startedAt,
      operationId: c.get("operationId"),
      merchantId: c.get("merchantId"),
      errorCode: c.get("errorCode"),
    };
    for (const observer of observers) observer(observation, c);
  };
}
