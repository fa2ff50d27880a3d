/**
 * Checks admin request bodies with the validators precompiled from admin-openapi.yaml (admin-validators.gen.js,
 * ajv standalone with the Open API validator's options: no coercion, unknown fields rejected, lengths in code
 * points, Unicode patterns) and reports each violation as a `{pointer, rule, message}` issue, the shape of the
 * Open API's `details.errors`.
 *
 * The issues are the ones the admin API has always answered: one per offending field, with the pointer naming
 * the missing or unknown property itself; a value of the wrong type reports only `type` (not also `enum`); a
 * failed `oneOf` reports only `oneOf` (not what each alternative disliked, which is noise when the body matched
 * none or two of them).
 */
import type { ValidationIssue } from "@org/webinar-validator";
import { adminBodyValidators, type AdminValidationError } from "./admin-validators.gen.js";

/** An admin operation id, as admin-openapi.yaml names it. */
export type AdminOperationId = keyof typeof adminBodyValidators;

/** One offending field: JSON pointer, violated keyword, human text. */
export type BodyIssue = ValidationIssue;

const escapePointerToken = (name: string) => name.replaceAll("~", "~0").replaceAll("/", "~1");

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
function withoutSubsumed(errors: readonly AdminValidationError[]): AdminValidationError[] {
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

function typesOf(params: Record<string, unknown>): string {
  const { type } = params;
  return (Array.isArray(type) ? type.map(String) : String(type).split(",")).join(" or ");
}

/** The admin API's wording of each keyword's violation. */
function messageOf({ keyword, params, message }: AdminValidationError): string {
  switch (keyword) {
    case "type":
      return `must be ${typesOf(params)}`;
    case "enum":
      return `must be one of ${(params.allowedValues as unknown[]).map((value) => JSON.stringify(value)).join(", ")}`;
    case "required":
      return `must have required property '${String(params.missingProperty)}'`;
    case "additionalProperties":
      return "is not an allowed property";
    case "minLength":
      return `must have at least ${String(params.limit)} characters`;
    case "maxLength":
      return `must have at most ${String(params.limit)} characters`;
    case "minItems":
      return `must have at least ${String(params.limit)} items`;
    case "maxItems":
      return `must have at most ${String(params.limit)} items`;
    case "pattern":
      return `must match ${String(params.pattern)}`;
    case "minimum":
    case "maximum":
    case "exclusiveMinimum":
    case "exclusiveMaximum":
      return `must be ${String(params.comparison)} ${String(params.limit)}`;
    case "oneOf":
      return "must match exactly one of the allowed shapes";
    default:
      return message ?? `violates ${keyword}`;
  }
}

/** ajv reports a missing or unknown property at its parent object; the issue points at the property itself. */
function pointerOf({ keyword, params, instancePath }: AdminValidationError): string {
  const property =
    keyword === "required"
      ? params.missingProperty
      : keyword === "additionalProperties"
        ? params.additionalProperty
        : undefined;
  return typeof property === "string" ? `${instancePath}/${escapePointerToken(property)}` : instancePath;
}

/** Maps ajv's errors of one validation to the admin API's issues. */
export function toBodyIssues(errors: readonly AdminValidationError[]): BodyIssue[] {
  return withoutSubsumed(errors).map((error) => ({
    pointer: pointerOf(error),
    rule: error.keyword,
    message: messageOf(error),
  }));
}

/**
 * Every violation of the operation's request-body schema by `body` (empty when valid).
 *
 * @example
 * checkBody("createMerchant", {});
 * // [{ pointer: "/name", rule: "required", message: "must have required property 'name'" }]
 */
export function checkBody(operationId: AdminOperationId, body: unknown): BodyIssue[] {
  const validate = adminBodyValidators[operationId];
  if (validate(body)) return [];
  return toBodyIssues(validate.errors ?? []);
}
