/** One log line per request: id, method, path (no query), status, duration, operation, merchant, error code. */
import type { Logger } from "../logging/log";
import type { RequestObserver } from "./request-observation";

/** The access log as an observer of each answered request. */
export function accessLog(logger: Logger): RequestObserver {
  return function logRequest(observation) {
    logger.info(
      {
        requestId: observation.requestId,
        method: observation.method,
        path: observation.path,
        status: observation.status,
        durationMs: Math.round(observation.durationMs * 10) / 10,
        operationId: observation.operationId,
        merchantId: observation.merchantId,
        errorCode: observation.errorCode,
      },
      "request",
    );
  };
}
