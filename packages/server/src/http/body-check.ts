/**
 * Checks request bodies of the server's own documents (admin-openapi.yaml, watch-openapi.yaml) with the
 * validators precompiled from them (`*-validators.gen.js`: ajv standalone with the Open API validator's options:
 * no coercion, unknown fields rejected, lengths in code points, Unicode patterns) and reports each violation as a
 * `{pointer, rule, message}` issue, worded by @org/webinar-validator's `toValidationIssue` as the Open API's
 * `details.errors` are.
 *
 * One issue per offending field: a value of the wrong type reports only `type` (not also `enum`); a failed `oneOf`
 * reports only `oneOf` (not what each alternative disliked, which is noise when the body matched none or two of
 * them).
 */
import { toValidationIssue, type SchemaError, type ValidationIssue } from "@org/webinar-validator";
import { ServiceError } from "../errors";

/** A precompiled validator: whether `data` is valid; the errors of the last call are on `errors`. */
export interface BodyValidator {
  (data: unknown): boolean;
  errors?: SchemaError[] | null;
}

/** What a generated `*-validators.gen.js` module provides for checking its document's bodies. */
export interface DocumentValidators<OperationId extends string> {
  validators: Readonly<Record<OperationId, BodyValidator>>;
  patternMessages: Readonly<Record<string, string>>;
}

/** Keywords whose own error stands for the errors of their subschemas when they fail. */
const COMPOSITE_KEYWORDS = new Set(["oneOf", "anyOf"]);

/** `#/properties/a/type` -> `#/properties/a/type`, `#/properties/a`, `#`: the schema locations enclosing an error. */
function* enclosingSchemaPaths(schemaPath: string): Generator<string> {
  for (let end = schemaPath.length; end > 0; end = schemaPath.lastIndexOf("/", end - 1)) yield schemaPath.slice(0, end);
}

/**
 * Drops the errors the issue list leaves out: those inside a failed `oneOf`/`anyOf` alternative (ajv keeps them
 * only when the whole keyword failed), and the other keywords of a schema whose `type` the value already fails.
 * The generated schemas have every `$ref` inlined, so an error's `schemaPath` runs from the body's root and
 * enclosure is a prefix test; linear in the number of errors, as a body of 10,000 bad list items has as many.
 */
function withoutSubsumed(errors: readonly SchemaError[]): SchemaError[] {
  const failedComposites = new Set<string>();
  const failedTypes = new Set<string>();
  for (const { keyword, schemaPath, instancePath } of errors) {
    if (COMPOSITE_KEYWORDS.has(keyword)) failedComposites.add(schemaPath);
    else if (keyword === "type") failedTypes.add(`${instancePath} ${schemaPath.slice(0, schemaPath.lastIndexOf("/"))}`);
  }
  return errors.filter(({ keyword, schemaPath, instancePath }) => {
    for (const enclosing of enclosingSchemaPaths(schemaPath)) {
      if (enclosing !== schemaPath && failedComposites.has(enclosing)) return false;
      if (keyword !== "type" && failedTypes.has(`${instancePath} ${enclosing}`)) return false;
    }
    return true;
  });
}

/**
 * The body check of one document: every violation of the operation's request-body schema by `body` (empty when
 * valid).
 *
 * @example
 * const checkAdminBody = bodyChecker({ validators: adminBodyValidators, patternMessages: adminPatternMessages });
 * checkAdminBody("createMerchant", {});
 * // [{ pointer: "/name", rule: "required", message: "must have required property 'name'" }]
 */
export function bodyChecker<OperationId extends string>(
  document: DocumentValidators<OperationId>,
): (operationId: OperationId, body: unknown) => ValidationIssue[] {
  return (operationId, body) => {
    const validate = document.validators[operationId];
    if (validate(body)) return [];
    return withoutSubsumed(validate.errors ?? []).map((error) => toValidationIssue(error, document.patternMessages));
  };
}

/** 400 REQUEST_INVALID listing the body's issues in `details.errors`. */
export function invalidBody(errors: ValidationIssue[]): ServiceError {
  return new ServiceError("REQUEST_INVALID", "request body is invalid", { errors });
}
