/**
 * Building answers: JSON with `requestId` in the body (the access log puts the same id in `X-Request-Id` of every
 * answer), and the one place that turns any thrown value into the error envelope. A ServiceError is answered with its
 * code and status; a value the database refused to store (a NUL character, a number out of range) is 400
 * REQUEST_INVALID, whichever route it came through; anything else is 500 INTERNAL_ERROR with the request id and a fixed
 * message, never a stack or the error's own text, and is logged with the request id.
 */
import { isRejectedValue } from "../db/errors";
import { errorEnvelope } from "@org/webinar-validator";
import { ServiceError } from "../errors";
import type { Logger } from "../logging/log";

/** Headers of every JSON answer (http/security-headers.ts adds `nosniff` and `no-store` to every answer). */
export const JSON_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  "Content-Type": "application/json; charset=utf-8",
});

/** A JSON answer. */
export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { ...JSON_HEADERS, ...headers } });
}

/** The error code an answer was given, for the access log. */
export interface ErrorOutcome {
  response: Response;
  code: string;
}

/** Renders `error` as the error envelope; unexpected errors are logged and answered 500 INTERNAL_ERROR. */
export function errorResponse(
  requestId: string,
  error: unknown,
  logger: Logger,
  headers: Record<string, string> = {},
): ErrorOutcome {
  if (error instanceof ServiceError) {
    if (error.status >= 500 && (error as { cause?: unknown }).cause !== undefined)
      logger.warn({ requestId, code: error.code, cause: describeCause(error) }, "dependency unavailable");
    return {
      response: jsonResponse(error.status, errorEnvelope(requestId, error.code, error.message, error.details), headers),
      code: error.code,
    };
  }
  if (isRejectedValue(error)) {
    logger.info({ requestId, cause: (error as Error).message }, "the database refused a value of the request");
    return {
      response: jsonResponse(
        400,
        errorEnvelope(requestId, "REQUEST_INVALID", "a value of the request cannot be stored"),
        headers,
      ),
      code: "REQUEST_INVALID",
    };
  }
  logger.error({ requestId, err: error }, "unexpected error");
  return {
    response: jsonResponse(500, errorEnvelope(requestId, "INTERNAL_ERROR", "unexpected server error"), headers),
    code: "INTERNAL_ERROR",
  };
}

function describeCause(error: ServiceError): string | undefined {
  const cause = (error as { cause?: unknown }).cause;
  if (cause === undefined) return undefined;
  return cause instanceof Error ? `${cause.name}: ${cause.message}` : String(cause);
}
