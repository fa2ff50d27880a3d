/**
 * Rejections: the answers the verifier sends instead of handing a request on. Every answer to one request carries
 * its request id, in `X-Request-Id` and in the envelope, and the CORS headers of an allowed browser origin.
 */
import type { ErrorCode } from "@org/webinar-types";
import { ERROR_RESPONSE_HEADERS, errorEnvelope, statusOf } from "./error-envelope";
import type { RequestRejection } from "./signed-request-types";

/** The request id of one request and the headers each of its answers carries. */
export interface AnswerBasis {
  requestId: string;
  headers: Record<string, string>;
}

/** An error answer: the envelope, its status (from the spec's error catalog unless given) and headers. */
export function rejection(
  answer: AnswerBasis,
  code: ErrorCode,
  message: string,
  status: number = statusOf(code),
  extraHeaders?: Readonly<Record<string, string>>,
): RequestRejection {
  return {
    ok: false,
    status,
    body: errorEnvelope(answer.requestId, code, message),
    headers: { ...ERROR_RESPONSE_HEADERS, ...answer.headers, ...extraHeaders },
  };
}

/** Whether a check's result is a rejection rather than the value it looked for. */
export function isRejection(value: unknown): value is RequestRejection {
  return typeof value === "object" && value !== null && (value as { ok?: unknown }).ok === false;
}
