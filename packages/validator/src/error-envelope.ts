/**
 * The `ErrorEnvelope` of spec/openapi.yaml and the request id every answer carries. Statuses come from the
 * `ErrorCode` schema's `x-httpStatus` (via `errorCatalog`), so a code can never be answered with a status the spec
 * does not give it.
 */
import { errorCatalog, type ErrorBody, type ErrorCode } from "@org/webinar-types";

/** One offending field of a request body: where (JSON pointer), which rule, and a human message. */
export interface ValidationIssue {
  /** JSON pointer into the request body, e.g. `/phone`; `""` is the body itself. */
  pointer: string;
  /** The violated rule: a JSON Schema keyword (`type`, `maxLength`, `required`, ...) or a spec rule name. */
  rule: string;
  /** Human-readable text; clients branch on `error.code`, never on this. */
  message: string;
}

/** An error envelope whose code is `Code`: the spec's `ErrorEnvelope` for the default, a server's own codes otherwise. */
export interface ErrorEnvelopeOf<Code extends string> {
  requestId: string;
  error: Omit<ErrorBody, "code"> & { code: Code };
}

/**
 * Builds `{ requestId, error: { code, message, details? } }`, `details` left out when there are none. A server may
 * use it for answers of its own with codes outside the spec's `ErrorCode` (an admin API, say).
 *
 * @example
 * errorEnvelope("req_1", "OPEN_API_REPLAYED", "nonce already used");
 * // { requestId: "req_1", error: { code: "OPEN_API_REPLAYED", message: "nonce already used" } }
 */
export function errorEnvelope<Code extends string = ErrorCode>(
  requestId: string,
  code: Code,
  message: string,
  details?: ErrorBody["details"],
): ErrorEnvelopeOf<Code> {
  return { requestId, error: details === undefined ? { code, message } : { code, message, details } };
}

/** The HTTP status the spec gives an error code (`x-httpStatus`). */
export function statusOf(code: ErrorCode): number {
  return errorCatalog[code].status;
}

/**
 * The default request id: `req_` and 32 hex digits, the first 12 the time in epoch milliseconds and the other 20 from
 * the platform's CSPRNG (80 bits). Ids made later sort later, so a server that keeps them in an index (a request
 * log looked up by request id) adds each at the index's end rather than at a random page of it, and an operator
 * can read from an id when its request came. Request ids are trace ids, not secrets.
 *
 * The random digits are the first and last groups of a `crypto.randomUUID()` (8 + 12 digits, none of them the
 * UUID's version or variant digit): runtimes hand out UUIDs from a pool of random bytes drawn in bulk, where
 * `getRandomValues` asks the CSPRNG anew on every call, about ten times the cost, on every request a server answers.
 */
export function defaultRequestId(): string {
  const uuid = crypto.randomUUID();
  return `req_${Date.now().toString(16).padStart(12, "0")}${uuid.slice(0, 8)}${uuid.slice(24)}`;
}

/**
 * Headers of every answer the validator writes itself (rejections and CORS preflights): never stored by a cache,
 * and never content-sniffed by a browser. A server gives its own answers the same headers with this constant.
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
