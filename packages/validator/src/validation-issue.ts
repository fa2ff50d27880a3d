/**
 * One error of a JSON Schema validator (ajv's error object) as an entry of an error envelope's
 * `details.errors`: `{pointer, rule, message}`. The request-body validators of this package word their answers
 * with it, and so can a server that validates routes of its own with ajv, so every answer names a field the same
 * way.
 */
import type { ValidationIssue } from "./error-envelope";

/** One error as ajv reports it (`allErrors` and `messages` on); the generated validators report these. */
export interface SchemaError {
  /** JSON pointer to the offending value; a missing or unknown property is reported at its parent object. */
  instancePath: string;
  /** JSON pointer into the schema, to the keyword that failed. */
  schemaPath: string;
  keyword: string;
  params: Record<string, unknown>;
  message?: string;
}

const escapePointerToken = (token: string) => token.replaceAll("~", "~0").replaceAll("/", "~1");

/** ajv reports a missing or unknown property at its parent; the issue's pointer names the property itself. */
function pointerOf({ keyword, params, instancePath }: SchemaError): string {
  const property =
    keyword === "required"
      ? params.missingProperty
      : keyword === "additionalProperties"
        ? params.additionalProperty
        : undefined;
  return typeof property === "string" ? `${instancePath}/${escapePointerToken(property)}` : instancePath;
}

function messageOf(error: SchemaError, patternMessages: Readonly<Record<string, string>>): string {
  if (error.keyword === "additionalProperties") return "is not a field of this operation (unknown fields are rejected)";
  if (error.keyword === "enum" && Array.isArray(error.params.allowedValues)) {
    return `must be one of ${error.params.allowedValues.map((value) => JSON.stringify(value)).join(", ")}`;
  }
  // A pattern's message says in words what the pattern asks for (`x-pattern-message`), not the regular expression.
  if (error.keyword === "pattern" && typeof error.params.pattern === "string") {
    const message = patternMessages[error.params.pattern];
    if (message !== undefined) return message;
  }
  return error.message ?? `violates ${error.keyword}`;
}

/**
 * An ajv error as a `details.errors` entry: the pointer names the offending property itself (`/phone`, also for a
 * missing or unknown one, `~` and `/` escaped), the rule is the failed keyword, and the message is ajv's, except
 * for unknown fields, enums (the allowed values listed) and patterns found in `patternMessages` (pattern source ->
 * words, as the schemas' `x-pattern-message` give them).
 *
 * @example
 * toValidationIssue({ instancePath: "", schemaPath: "#/required", keyword: "required",
 *   params: { missingProperty: "name" }, message: "must have required property 'name'" });
 * // { pointer: "/name", rule: "required", message: "must have required property 'name'" }
 */
export function toValidationIssue(
  error: SchemaError,
  patternMessages: Readonly<Record<string, string>> = {},
): ValidationIssue {
  return { pointer: pointerOf(error), rule: error.keyword, message: messageOf(error, patternMessages) };
}
