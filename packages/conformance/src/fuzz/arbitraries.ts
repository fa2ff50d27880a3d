/**
 * fast-check arbitraries built from a request schema: bodies the schema describes (valid ones, mostly) and the same
 * bodies broken in one way each (a required field dropped, an unknown field added, a value of another type, a
 * number or a length just past its bound, a body that is no object). Whether a body is valid is not decided here
 * but by the kit's own reading of the spec (oracle/request-verdict.ts), so an arbitrary may stray either way.
 */
import fc from "fast-check";
import { humanText } from "./human-text";
import type { JsonSchema } from "./json-schema";

/** Fields given fixed choices instead of their schema's, so a valid body reaches the server's business logic. */
export type Overrides = Readonly<Record<string, fc.Arbitrary<unknown>>>;

/** How long generated strings may get, when the schema allows longer ones: enough to cross every limit of 191. */
const LONGEST = 200;

function typesOf(schema: JsonSchema): string[] {
  if (schema.type === undefined) return [];
  return typeof schema.type === "string" ? [schema.type] : [...schema.type];
}

function stringArbitrary(schema: JsonSchema): fc.Arbitrary<string> {
  const minLength = schema.minLength ?? 0;
  const maxLength = Math.min(schema.maxLength ?? LONGEST, LONGEST);
  const fits = (text: string) => [...text].length >= minLength && [...text].length <= maxLength;
  const free = fc.string({ unit: "grapheme", minLength, maxLength });
  // Free text (names, ids): mostly what people type, so a server failing on ordinary names is found every run.
  const typed = schema["x-no-lone-surrogates"] === true ? [{ arbitrary: humanText(maxLength), weight: 8 }] : [];
  if (schema.pattern === undefined)
    return typed.length === 0 ? free : fc.oneof(...typed, { arbitrary: free, weight: 1 });
  // Patterns fast-check cannot read fall back to free text, which the oracle then judges.
  try {
    // Mostly text of the pattern, so valid bodies get past validation; some free text to stray.
    const matching = fc.stringMatching(new RegExp(schema.pattern)).filter(fits);
    return fc.oneof(...typed, { arbitrary: matching, weight: 4 }, { arbitrary: free, weight: 1 });
  } catch {
    return typed.length === 0 ? free : fc.oneof(...typed, { arbitrary: free, weight: 1 });
  }
}

function integerArbitrary(schema: JsonSchema): fc.Arbitrary<number> {
  const min = schema.minimum ?? 0;
  const max = schema.maximum ?? Number.MAX_SAFE_INTEGER;
  return fc.oneof(fc.integer({ min, max: Math.min(max, min + 1000) }), fc.constantFrom(min, max));
}

/** Values of `schema`, as the schema describes them. */
export function schemaArbitrary(schema: JsonSchema, overrides: Overrides = {}): fc.Arbitrary<unknown> {
  if (schema.enum !== undefined) return fc.constantFrom(...schema.enum);
  const arbitraries = typesOf(schema).map((type): fc.Arbitrary<unknown> => {
    switch (type) {
      case "null":
        return fc.constant(null);
      case "string":
        return stringArbitrary(schema);
      case "integer":
        return integerArbitrary(schema);
      case "array":
        return fc.array(schemaArbitrary(schema.items ?? {}), { maxLength: Math.min(schema.maxItems ?? 5, 5) });
      case "object":
        return objectArbitrary(schema, overrides);
      default:
        return fc.anything();
    }
  });
  return arbitraries.length === 1 ? arbitraries[0]! : fc.oneof(...arbitraries);
}

function objectArbitrary(schema: JsonSchema, overrides: Overrides): fc.Arbitrary<Record<string, unknown>> {
  const properties = Object.fromEntries(
    Object.entries(schema.properties ?? {}).map(([name, property]) => [
      name,
      overrides[name] ?? schemaArbitrary(property),
    ]),
  );
  return fc.record(properties, { requiredKeys: [...(schema.required ?? [])] }) as fc.Arbitrary<Record<string, unknown>>;
}

/** A value of another JSON type than any `schema` allows (or a fraction where an integer is due). */
function wrongType(schema: JsonSchema): fc.Arbitrary<unknown> {
  const allowed = new Set(typesOf(schema));
  const candidates: Array<[string, fc.Arbitrary<unknown>]> = [
    ["null", fc.constant(null)],
    ["boolean", fc.boolean()],
    ["integer", fc.double({ noNaN: true, noDefaultInfinity: true }).filter((value) => !Number.isInteger(value))],
    ["string", fc.string({ maxLength: 10 })],
    ["array", fc.array(fc.integer(), { maxLength: 2 })],
    ["object", fc.dictionary(fc.string({ maxLength: 5 }), fc.integer(), { maxKeys: 2 })],
  ];
  return fc.oneof(...candidates.filter(([type]) => !allowed.has(type)).map(([, arbitrary]) => arbitrary));
}

/** A value just past one of `schema`'s bounds, when it has one. */
function pastBound(schema: JsonSchema): fc.Arbitrary<unknown> | undefined {
  const bounds: Array<fc.Arbitrary<unknown>> = [];
  if (schema.maximum !== undefined) bounds.push(fc.constant(schema.maximum + 1));
  if (schema.minimum !== undefined) bounds.push(fc.constant(schema.minimum - 1));
  if (schema.maxLength !== undefined) bounds.push(fc.constant("x".repeat(schema.maxLength + 1)));
  if (schema.maxItems !== undefined) bounds.push(fc.constant(Array.from({ length: schema.maxItems + 1 }, () => 10000)));
  if (schema.enum !== undefined) bounds.push(fc.constant(`${String(schema.enum[0])}_`));
  return bounds.length === 0 ? undefined : fc.oneof(...bounds);
}

/** One way to break a body: applied to a valid body, it yields a body the schema refuses. */
type Breakage = fc.Arbitrary<(body: Record<string, unknown>) => unknown>;

function breakages(schema: JsonSchema): Breakage[] {
  const properties = Object.entries(schema.properties ?? {});
  const names = properties.map(([name]) => name);
  const result: Breakage[] = [
    fc.constantFrom(...(schema.required ?? names)).map((name) => (body) => {
      const { [name]: _dropped, ...rest } = body;
      return rest;
    }),
    fc.tuple(fc.string({ minLength: 1, maxLength: 12 }), fc.jsonValue()).map(
      ([name, value]) =>
        (body) =>
          names.includes(name) ? { ...body, [`${name}_`]: value } : { ...body, [name]: value },
    ),
    fc.oneof(fc.constant([]), fc.string({ maxLength: 5 }), fc.constant(null), fc.integer()).map((value) => () => value),
  ];
  for (const [name, property] of properties) {
    result.push(wrongType(property).map((value) => (body) => ({ ...body, [name]: value })));
    const past = pastBound(property);
    if (past !== undefined) result.push(past.map((value) => (body) => ({ ...body, [name]: value })));
  }
  return result;
}

/** Bodies of `schema` broken in one way each. */
export function brokenArbitrary(schema: JsonSchema, overrides: Overrides = {}): fc.Arbitrary<unknown> {
  const valid = objectArbitrary(schema, overrides);
  return fc.tuple(valid, fc.oneof(...breakages(schema))).map(([body, breakIt]) => breakIt(body));
}
