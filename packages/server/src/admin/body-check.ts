/**
 * Checks admin request bodies against the schemas of admin-openapi.yaml (inlined into admin-schemas.gen.ts at
 * build time). It enforces exactly the JSON Schema keywords the generator admits (the generator refuses a
 * schema using any other), with the Open API validator's semantics: no type coercion, unknown properties
 * rejected where `additionalProperties: false`, string lengths in Unicode code points, `pattern` as an
 * unanchored Unicode regular expression. Issues use the `{pointer, rule, message}` shape of the Open API's
 * `details.errors`.
 */

/** The JSON Schema subset of the admin document. */
export interface AdminSchema {
  readonly type?: string | readonly string[];
  readonly enum?: readonly unknown[];
  readonly required?: readonly string[];
  readonly properties?: { readonly [name: string]: AdminSchema };
  readonly additionalProperties?: boolean;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly pattern?: string;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly items?: AdminSchema;
  readonly minItems?: number;
  readonly maxItems?: number;
  readonly oneOf?: readonly AdminSchema[];
}

/** One offending field: JSON pointer, violated keyword, human text. */
export interface BodyIssue {
  pointer: string;
  rule: string;
  message: string;
}

const patterns = new Map<string, RegExp>();

function patternOf(source: string): RegExp {
  let pattern = patterns.get(source);
  if (pattern === undefined) {
    pattern = new RegExp(source, "u");
    patterns.set(source, pattern);
  }
  return pattern;
}

function typeOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}

function hasType(value: unknown, type: string): boolean {
  const actual = typeOf(value);
  return actual === type || (type === "number" && actual === "integer");
}

function escapePointer(name: string): string {
  return name.replaceAll("~", "~0").replaceAll("/", "~1");
}

function check(schema: AdminSchema, value: unknown, pointer: string, issues: BodyIssue[]): void {
  const issue = (rule: string, message: string) => issues.push({ pointer, rule, message });
  if (schema.type !== undefined) {
    const types = typeof schema.type === "string" ? [schema.type] : schema.type;
    if (!types.some((type) => hasType(value, type))) return void issue("type", `must be ${types.join(" or ")}`);
  }
  if (schema.enum !== undefined && !schema.enum.includes(value)) issue("enum", `must be one of ${schema.enum.map((item) => JSON.stringify(item)).join(", ")}`);
  if (typeof value === "string") {
    const length = [...value].length;
    if (schema.minLength !== undefined && length < schema.minLength) issue("minLength", `must have at least ${schema.minLength} characters`);
    if (schema.maxLength !== undefined && length > schema.maxLength) issue("maxLength", `must have at most ${schema.maxLength} characters`);
    if (schema.pattern !== undefined && !patternOf(schema.pattern).test(value)) issue("pattern", `must match ${schema.pattern}`);
  }
  if (typeof value === "number") {
    if (schema.minimum !== undefined && value < schema.minimum) issue("minimum", `must be >= ${schema.minimum}`);
    if (schema.maximum !== undefined && value > schema.maximum) issue("maximum", `must be <= ${schema.maximum}`);
  }
  if (Array.isArray(value)) {
    if (schema.minItems !== undefined && value.length < schema.minItems) issue("minItems", `must have at least ${schema.minItems} items`);
    if (schema.maxItems !== undefined && value.length > schema.maxItems) issue("maxItems", `must have at most ${schema.maxItems} items`);
    if (schema.items !== undefined) value.forEach((item, index) => check(schema.items!, item, `${pointer}/${index}`, issues));
  }
  if (typeOf(value) === "object") {
    const object = value as Record<string, unknown>;
    for (const name of schema.required ?? []) {
      if (!Object.hasOwn(object, name)) issues.push({ pointer: `${pointer}/${escapePointer(name)}`, rule: "required", message: `must have required property '${name}'` });
    }
    for (const [name, property] of Object.entries(object)) {
      const propertySchema = schema.properties?.[name];
      if (propertySchema !== undefined) check(propertySchema, property, `${pointer}/${escapePointer(name)}`, issues);
      else if (schema.additionalProperties === false) {
        issues.push({ pointer: `${pointer}/${escapePointer(name)}`, rule: "additionalProperties", message: "is not an allowed property" });
      }
    }
  }
  if (schema.oneOf !== undefined) {
    const matching = schema.oneOf.filter((option) => {
      const optionIssues: BodyIssue[] = [];
      check(option, value, pointer, optionIssues);
      return optionIssues.length === 0;
    }).length;
    if (matching !== 1) issue("oneOf", "must match exactly one of the allowed shapes");
  }
}

/**
 * Every violation of `schema` by `value` (empty when valid).
 *
 * @example
 * checkBody({ type: "object", required: ["name"], properties: { name: { type: "string" } } }, {});
 * // [{ pointer: "/name", rule: "required", message: "must have required property 'name'" }]
 */
export function checkBody(schema: AdminSchema, value: unknown): BodyIssue[] {
  const issues: BodyIssue[] = [];
  check(schema, value, "", issues);
  return issues;
}
