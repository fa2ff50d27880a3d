/**
 * Response-body validation for contract tests: does what a server answered match the spec's schema for that
 * operation and status, with error codes limited to that response's `x-error-codes`?
 */
import type { OperationId } from "@org/webinar-types";
import type { ValidationIssue } from "./error-envelope";
import { type GeneratedValidator, patternMessages } from "./request-validators.gen.js";
import { responseValidators } from "./response-validators.gen.js";
import { toValidationIssue } from "./validation-issue";

/** The outcome of {@link validateResponse}. */
export type ResponseValidation = { valid: true } | { valid: false; errors: ValidationIssue[] };

/**
 * Validates a response body (already parsed from JSON) against the spec: the success envelope for 200, the error
 * envelope for a documented error status with `error.code` one of that response's `x-error-codes`. A status the
 * operation does not document is invalid.
 *
 * @example
 * const notFinal = { requestId: "req_1", error: { code: "WATCH_DATA_NOT_FINAL", message: "retry later" } };
 * validateResponse("queryViewerWatch", 409, notFinal); // { valid: true }
 * const conflict = { requestId: "req_1", error: { code: "VIEWER_IDENTITY_CONFLICT", message: "x" } };
 * validateResponse("getWatchOverview", 409, conflict);
 * // { valid: false, errors: [{ pointer: "/error/code", rule: "enum",
 * //   message: 'must be one of "OPEN_API_REPLAYED", "WATCH_DATA_NOT_FINAL"' }] }
 */
export function validateResponse(operationId: OperationId, status: number, body: unknown): ResponseValidation {
  const byStatus = responseValidators[operationId] as Readonly<Record<string, GeneratedValidator>> | undefined;
  if (byStatus === undefined) {
    return {
      valid: false,
      errors: [{ pointer: "", rule: "operation", message: `${String(operationId)} is not an operation of the spec` }],
    };
  }
  const validate = byStatus[String(status)];
  if (validate === undefined) {
    return {
      valid: false,
      errors: [{ pointer: "", rule: "status", message: `${operationId} does not document status ${status}` }],
    };
  }
  if (validate(body)) return { valid: true };
  return {
    valid: false,
    errors: (validate.errors ?? []).map((error) => toValidationIssue(error, patternMessages)),
  };
}
