/**
 * The Conventions of the spec's description for request bodies, as properties of every request schema, so a field
 * added later cannot skip them: every integer has a maximum the database can hold and a `format`, and every string
 * is an enum or an anchored pattern that admits no control character, line or paragraph separator, with
 * `x-no-lone-surrogates` beside it unless the pattern itself admits no lone surrogate. (The
 * request vectors in spec/test-vectors/requests check each field's answer through the validator.)
 */
import { describe, expect, it } from "vitest";
import { type Loose, operations, resolve, spec } from "./load-spec.ts";

interface Leaf {
  where: string;
  schema: Loose;
}

/** Every schema reachable from a request body (through $ref, properties, items and the allOf/anyOf/oneOf lists). */
function requestSchemas(): Leaf[] {
  const leaves: Leaf[] = [];
  const visit = (node: Loose, where: string): void => {
    const schema = resolve(node);
    leaves.push({ where, schema });
    for (const [name, property] of Object.entries(schema.properties ?? {})) visit(property, `${where}/${name}`);
    if (schema.items) visit(schema.items, `${where}/items`);
    for (const list of ["allOf", "anyOf", "oneOf"])
      for (const [index, entry] of ((schema[list] ?? []) as Loose[]).entries())
        visit(entry, `${where}/${list}/${index}`);
  };
  for (const [operationId, , operation] of operations)
    visit(operation.requestBody.content["application/json"].schema, operationId);
  return leaves;
}

const typesOf = (schema: Loose): string[] => (Array.isArray(schema.type) ? schema.type : [schema.type]);
const leaves = requestSchemas();
const integers = leaves.filter(({ schema }) => typesOf(schema).includes("integer"));
const strings = leaves.filter(({ schema }) => typesOf(schema).includes("string"));

// Cc (C0, DEL, C1), the Unicode line and paragraph separators, and both halves of a surrogate pair alone.
const FORBIDDEN = [
  "\u0000",
  "\u0009",
  "\u000a",
  "\u001f",
  "\u007f",
  "\u0085",
  "\u009f",
  "\u2028",
  "\u2029",
  "\ud800",
  "\udc00",
];
// The largest integer every JSON parser keeps exactly; PostgreSQL's bigint holds it, and integer columns hold
// the smaller ranges (uid, pageSize) the spec gives.
const LARGEST_EXACT_INTEGER = Number.MAX_SAFE_INTEGER;

describe("Conventions: request integers and strings", () => {
  it("the walk reaches every request field", () => {
    expect(integers.map(({ where }) => where).sort()).toEqual([
      "issueLoginTicket/uid",
      "queryViewerWatch/minWatchSeconds",
      "queryViewerWatch/pageSize",
      "queryViewerWatch/uids/items",
    ]);
    expect(strings.map(({ where }) => where).sort()).toEqual([
      "getWatchOverview/playbackMode",
      "getWatchOverview/ticketCode",
      "issueLoginTicket/ticketCode",
      "queryViewerWatch/cursor",
      "queryViewerWatch/externalUserIds/items",
      "queryViewerWatch/playbackMode",
      "queryViewerWatch/sort",
      "queryViewerWatch/ticketCode",
      "upsertViewer/displayName",
      "upsertViewer/externalUserId",
      "upsertViewer/phone",
    ]);
  });

  it.each(integers)("$where has a maximum no larger than 2^53 - 1, and a format that holds it", ({ schema }) => {
    expect(schema.maximum).toBeTypeOf("number");
    expect(schema.maximum).toBeLessThanOrEqual(LARGEST_EXACT_INTEGER);
    expect(schema.format).toBe(schema.maximum <= 2 ** 31 - 1 ? "int32" : "int64");
  });

  it.each(strings)("$where is an enum or an anchored pattern that rejects every forbidden character", ({ schema }) => {
    if (schema.enum !== undefined) {
      for (const value of schema.enum) expect(FORBIDDEN.some((character) => value.includes(character))).toBe(false);
      return;
    }
    const source: string = schema.pattern;
    expect(source).toMatch(/^\^.*\$$/s);
    const pattern = new RegExp(source, "u");
    const refusesLoneSurrogates = schema["x-no-lone-surrogates"] === true;
    const accepted = (text: string) => pattern.test(text) && !(refusesLoneSurrogates && /\p{Cs}/u.test(text));
    for (const character of FORBIDDEN) {
      for (const text of [character, ` ${character} `, `a${character}a`, `0${character}0`])
        expect(accepted(text), JSON.stringify(text)).toBe(false);
    }
  });
});

describe("Conventions: the text rule and the integer maximum are stated where users read them", () => {
  const conventions: string = spec.info.description;
  const errorsGuide: string = spec.tags.find((tag: { name: string }) => tag.name === "Errors and retries").description;
  it.each([
    ["the Conventions", conventions],
    ["the Errors and retries guide", errorsGuide],
  ])("%s: mentions control characters, separators, lone surrogates and the integer maximum", (_where, text) => {
    for (const phrase of ["control character", "U+2028", "lone surrogate", String(spec["x-limits"].integerMax)])
      expect(text).toContain(phrase);
  });
});
