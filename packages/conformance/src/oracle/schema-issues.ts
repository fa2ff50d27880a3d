/**
 * The kit's own reading of a JSON Schema: the keywords the spec's schemas use (type, enum, properties, required,
 * additionalProperties, items, maxItems, lengths in code points, pattern, minimum, maximum, the date-time format
 * and the spec's `x-no-lone-surrogates`), judged here and not by any validator a server may share. Each issue
 * names where it is and which keyword it breaks, and carries the `x-error-code` of the schema it sits on.
 */
import type { JsonSchema } from "../fuzz/json-schema";

export interface SchemaIssue {
  /** JSON pointer of the offending value; `""` for the body itself. */
  pointer: string;
  keyword: string;
  /** The `x-error-code` of the schema whose own keyword (not `type`) the value breaks, if it names one. */
  code: string | undefined;
}

/** RFC 3339 date-time, as the spec's `format: date-time` means it. */
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})$/i;

/** Over code points, a surrogate that is half of no pair is a code point of its own, category Cs. */
const LONE_SURROGATE = /\p{Cs}/u;

const patterns = new Map<string, RegExp>();

/** A schema pattern as a regular expression over code points (the `u` flag), or over code units if it must. */
function compiled(pattern: string): RegExp {
  let regex = patterns.get(pattern);
  if (regex === undefined) {
    try {
      regex = new RegExp(pattern, "u");
    } catch {
      regex = new RegExp(pattern);
    }
    patterns.set(pattern, regex);
  }
  return regex;
}

function jsonType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}

function typeMatches(schema: JsonSchema, value: unknown): boolean {
  if (schema.type === undefined) return true;
  const types = typeof schema.type === "string" ? [schema.type] : schema.type;
  const actual = jsonType(value);
  return types.includes(actual) || (actual === "integer" && types.includes("number"));
}

function stringIssues(schema: JsonSchema, value: string): string[] {
  const keywords: string[] = [];
  const length = [...value].length;
  if (schema.minLength !== undefined && length < schema.minLength) keywords.push("minLength");
  if (schema.maxLength !== undefined && length > schema.maxLength) keywords.push("maxLength");
  if (schema.pattern !== undefined && !compiled(schema.pattern).test(value)) keywords.push("pattern");
  if (schema["x-no-lone-surrogates"] === true && LONE_SURROGATE.test(value)) keywords.push("x-no-lone-surrogates");
  if (schema.format === "date-time" && !(DATE_TIME.test(value) && !Number.isNaN(Date.parse(value))))
    keywords.push("format");
  if (schema.format === "uri" && !URL.canParse(value)) keywords.push("format");
  return keywords;
}

function ownIssues(schema: JsonSchema, value: unknown): string[] {
  if (!typeMatches(schema, value)) return ["type"];
  const keywords: string[] = [];
  if (schema.enum !== undefined && !schema.enum.includes(value)) keywords.push("enum");
  if (typeof value === "string") keywords.push(...stringIssues(schema, value));
  if (typeof value === "number") {
    if (schema.minimum !== undefined && value < schema.minimum) keywords.push("minimum");
    if (schema.maximum !== undefined && value > schema.maximum) keywords.push("maximum");
  }
  if (Array.isArray(value) && schema.maxItems !== undefined && value.length > schema.maxItems)
    keywords.push("maxItems");
  return keywords;
}

function objectIssues(schema: JsonSchema, value: Record<string, unknown>, pointer: string): SchemaIssue[] {
  const issues: SchemaIssue[] = [];
  const properties = schema.properties ?? {};
  for (const name of schema.required ?? [])
    if (!Object.hasOwn(value, name))
      issues.push({ pointer: `${pointer}/${name}`, keyword: "required", code: undefined });
  for (const [name, inner] of Object.entries(value)) {
    // Own properties only: a body's "__proto__" is a field like any other, not Object.prototype's schema.
    const property = Object.hasOwn(properties, name) ? properties[name] : undefined;
    if (property !== undefined) issues.push(...schemaIssues(property, inner, `${pointer}/${name}`));
    else if (schema.additionalProperties === false)
      issues.push({ pointer: `${pointer}/${name}`, keyword: "additionalProperties", code: undefined });
  }
  return issues;
}

/** Every way `value` breaks `schema`; empty when it is valid. */
export function schemaIssues(schema: JsonSchema, value: unknown, pointer = ""): SchemaIssue[] {
  const own = ownIssues(schema, value);
  const code = schema["x-error-code"];
  const issues: SchemaIssue[] = own.map((keyword) => ({
    pointer,
    keyword,
    code: keyword !== "type" && typeof code === "string" ? code : undefined,
  }));
  if (own.includes("type")) return issues;
  if (jsonType(value) === "object") issues.push(...objectIssues(schema, value as Record<string, unknown>, pointer));
  if (Array.isArray(value) && schema.items !== undefined) {
    for (const [index, item] of value.entries())
      issues.push(...schemaIssues(schema.items, item, `${pointer}/${index}`));
  }
  return issues;
}
