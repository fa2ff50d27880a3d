/**
 * The `ErrorEnvelope` of spec/openapi.yaml and the request id every answer carries. Statuses come from the
 * `ErrorCode` schema's `x-httpStatus` (via `errorCatalog`), so a code can never be answered with a status the spec
 * does not give it.
 */
import { errorCatalog, type ErrorBody, type ErrorCode, type ErrorEnvelope } from "@org/webinar-types";

/** One offending field of a request body: where (JSON pointer), which rule, and a human message. */
export interface ValidationIssue {
  /** JSON pointer into the request body, e.g. `/phone`; `""` is the body itself. */
  pointer: string;
  /** The violated rule: a JSON Schema keyword (`type`, `maxLength`, `required`, ...) or a spec rule name. */
  rule: string;
  /** Human-readable text; clients branch on `error.code`, never on this. */
  message: string;
}

/** Builds `{ requestId, error: { code, message, details? } }`. */
export function errorEnvelope(requestId: string, code: ErrorCode, message: string, details?: ErrorBody["details"]): ErrorEnvelope {
  const error: ErrorBody = details === undefined ? { code, message } : { code, message, details };
  return { requestId, error };
}

/** The HTTP status the spec gives an error code (`x-httpStatus`). */
export function statusOf(code: ErrorCode): number {
  return errorCatalog[code].status;
}

/**
 * The default request id: `req_` and the 32 hex digits of a random UUID (the platform's CSPRNG). Request ids are
 * trace ids, not secrets.
 */
export function defaultRequestId(): string {
  return `req_${crypto.randomUUID().replaceAll("-", "")}`;
}

/**
 * Headers of every answer the validator writes itself (rejections and CORS preflights): never stored by a cache,
 * and never content-sniffed by a browser.
 */
export const ANSWER_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  "Cache-Control": "no-store",
  "X-Content-Type-Options": "nosniff",
});

/** Headers of every error answer: JSON, and the {@link ANSWER_HEADERS}. */
export const ERROR_RESPONSE_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  "Content-Type": "application/json; charset=utf-8",
  ...ANSWER_HEADERS,
});
