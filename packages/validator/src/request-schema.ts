/**
 * Runs the precompiled request-body validator of an operation and turns ajv's errors into the spec's
 * `details.errors` entries, each with the error code it answers: `REQUEST_INVALID`, or the code an `x-error-code`
 * on the property assigns to violations of that property's own constraints (queryViewerWatch: too many `uids` or
 * `externalUserIds`, a cursor of the wrong length or with a forbidden character -> `WATCH_REQUEST_INVALID`).
 *
 * `x-error-code` covers the size, length and pattern keywords of the property it sits on, not a value of the
 * wrong type (a malformed request) and not the items of a list: a `uids` entry out of range is a "UID" cause of
 * `REQUEST_INVALID` in queryViewerWatch's 400 answer.
 */
import type { ErrorCode, OperationId } from "@org/webinar-types";
import type { ValidationIssue } from "./error-envelope";
import { errorCodeOverrides, patternMessages, requestValidators } from "./request-validators.gen.js";
import { toValidationIssue } from "./validation-issue";

/** A request-body issue and the error code it answers. */
export interface CodedIssue extends ValidationIssue {
  code: ErrorCode;
}

const NO_ISSUES: readonly CodedIssue[] = Object.freeze([]);

/**
 * Validates a parsed request body against its operation's request schema. Returns no issues when it is valid.
 *
 * @example
 * validateRequestSchema("issueLoginTicket", { uid: 9999, ticketCode: "wbn-7Hq2kP9x" });
 * // [{ pointer: "/uid", rule: "minimum", message: "must be >= 10000", code: "REQUEST_INVALID" }]
 */
export function validateRequestSchema(operationId: OperationId, value: unknown): readonly CodedIssue[] {
  const validate = requestValidators[operationId];
  if (validate(value)) return NO_ISSUES;
  const overrides = errorCodeOverrides[operationId];
  return (validate.errors ?? []).map((error) => {
    const override = error.keyword === "type" ? undefined : overrides[error.instancePath];
    return { ...toValidationIssue(error, patternMessages), code: (override ?? "REQUEST_INVALID") as ErrorCode };
  });
}
