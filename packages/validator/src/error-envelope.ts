/**
 * The error envelope of spec §4.2 and the request id every answer carries. Statuses come from the spec's
 * `x-httpStatus` (via `errorCatalog`), so a code can never be answered with a status the spec does not give it.
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

const REQUEST_ID_HEX_LENGTH = 32;
const POOLED_REQUEST_IDS = 256;
const HEX: readonly string[] = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, "0"));
let hexPool = "";
let poolOffset = 0;

/**
 * The default request id: `req_` and 32 hex characters (16 bytes from the platform CSPRNG). The bytes are drawn
 * and turned into hex for 256 ids at a time, so an id is a slice of that text. Request ids are trace ids, not
 * secrets.
 */
export function defaultRequestId(): string {
  if (poolOffset >= hexPool.length) {
    let hex = "";
    for (const byte of crypto.getRandomValues(new Uint8Array((REQUEST_ID_HEX_LENGTH / 2) * POOLED_REQUEST_IDS))) hex += HEX[byte];
    hexPool = hex;
    poolOffset = 0;
  }
  const id = `req_${hexPool.slice(poolOffset, poolOffset + REQUEST_ID_HEX_LENGTH)}`;
  poolOffset += REQUEST_ID_HEX_LENGTH;
  return id;
}

/** Headers of every error answer: JSON, never cached. */
export const ERROR_RESPONSE_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  "Content-Type": "application/json; charset=utf-8",
  "Cache-Control": "no-store",
});
