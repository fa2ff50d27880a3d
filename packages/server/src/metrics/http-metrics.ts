/**
 * The request metrics whose names and labels outside checks rely on, fed from the one observation of each answered
 * request (http/request-observation.ts), never measured here. Every label value comes from a closed list: the
 * surface, an operationId of the server's documents ("unknown" for a path that is none), the status and the error
 * code of the error table; never a key, ticket code, id or path.
 */
import { Counter, Histogram, type Registry } from "prom-client";
import type { RequestObserver } from "../http/request-observation";

/** Seconds; from the 1 ms of a cached read to the 10 s no request should ever come near. */
const DURATION_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** The observer that counts each request and records its duration in `registry`. */
export function requestMetrics(registry: Registry): RequestObserver {
  const requests = new Counter({
    name: "webinar_http_requests_total",
    help: "Answered HTTP requests by surface, operation, status and error code (empty on success).",
    labelNames: ["surface", "operation", "status", "code"] as const,
    registers: [registry],
  });
  const durations = new Histogram({
    name: "webinar_http_request_duration_seconds",
    help: "Time from a request's arrival to its answer, by surface and operation.",
    labelNames: ["surface", "operation"] as const,
    buckets: DURATION_BUCKETS,
    registers: [registry],
  });
  return function countRequest(observation) {
    const { surface } = observation;
    const operation = observation.operationId ?? "unknown";
    requests.inc({ surface, operation, status: observation.status, code: observation.errorCode ?? "" });
    durations.observe({ surface, operation }, observation.durationMs / 1000);
  };
}
