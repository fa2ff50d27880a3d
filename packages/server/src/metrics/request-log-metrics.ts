/**
 * The console's request log: unverified Open API requests counted and not stored, past the bound of one key per
 * minute (WEBINAR_REQUEST_LOG_UNVERIFIED_PER_MINUTE). A steady rise means someone keeps sending requests that name
 * a merchant's key without its secret.
 */
import { Counter, type Registry } from "prom-client";

/** The request log's `onUnverifiedDropped` hook, recording into `registry`. */
export function requestLogMetrics(registry: Registry): () => void {
  const dropped = new Counter({
    name: "webinar_request_log_unverified_dropped_total",
    help: "Unverified Open API requests the request log counted and did not store (over one key's bound per minute).",
    registers: [registry],
  });
  return () => dropped.inc();
}
