/**
 * Compares the schema of one request or response body in the release's spec with the same schema in the current
 * spec, keyword by keyword, and records each difference as a finding judged by the direction its values flow
 * (see model.ts). Keywords the checker does not know are compared as a whole and, when they differ, count as
 * breaking for everyone: nothing changes unseen.
 */
import { asObject, follow, type Json, type JsonObject, keysOfEither, pointerToken, sameJson } from "./json.ts";
import { combine, type Direction, type Finding, impactOf, type Place, type Relation } from "./model.ts";
import { compareTextRules, type TextRule } from "./patterns.ts";

/** The two documents being compared and what the comparison found so far. */
export interface Walk {
  before: JsonObject;
  after: JsonObject;
  findings: Finding[];
  /** Definition pairs under comparison, so a recursive schema ends the walk. */
  active: Set<string>;
}

/** Where a schema's values appear, and where the schema is defined in each document. */
export interface SchemaSite {
  place: Place & { direction: Direction };
  beforeDefinition: string;
  afterDefinition: string;
}

type Compare = (walk: Walk, before: JsonObject, after: JsonObject, site: SchemaSite) => void;

/** Keywords that only document: a change of them changes no answer. */
export const DOCUMENTATION_KEYWORDS = [
  "description",
  "summary",
  "title",
  "examples",
  "example",
  "externalDocs",
  "$comment",
  "deprecated",
  "x-pattern-message",
  "x-enumDescriptions",
  "x-codeSamples",
];
const LOWER_BOUNDS = ["minimum", "exclusiveMinimum", "minLength", "minItems", "minProperties"];
const UPPER_BOUNDS = ["maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties"];
const ALL_TYPES = ["array", "boolean", "integer", "null", "number", "object", "string"];
/** The integer formats and their ranges: an annotation for code generators that pick an integer type by it. */
const INTEGER_FORMATS: Record<string, readonly [number, number]> = {
  int32: [-(2 ** 31), 2 ** 31 - 1],
  int64: [-(2 ** 63), 2 ** 63 - 1],
};

/** Records a finding at `site`; `relation` is turned into impacts by the site's direction. */
export function note(
  walk: Walk,
  site: { place: Place; afterDefinition: string },
  rule: string,
  what: string,
  judged: Relation | Pick<Finding, "clients" | "servers" | "documentation">,
): void {
  const impacts = typeof judged === "string" ? impactOf(site.place.direction ?? "request", judged) : judged;
  walk.findings.push({ rule, place: site.place, definition: site.afterDefinition, what, ...impacts });
}

export const DOCUMENTATION_ONLY = { clients: "compatible", servers: "compatible", documentation: true } as const;

/** Invisible and control characters as `\uXXXX`, so a pattern holding them literally can be read. */
const printable = (text: string) =>
  text.replace(
    /[^\P{Z}\u0020]|\p{C}/gu,
    (char) => `\\u${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`,
  );
const show = (value: Json | undefined) => `\`${printable(typeof value === "string" ? value : JSON.stringify(value))}\``;
const childField = (field: string, name: string) => (field === "" ? name : `${field}.${name}`);

/** A schema with its local `$ref`s followed (siblings of a `$ref` kept over the target's keywords). */
function resolveSchema(document: JsonObject, node: Json | undefined, definition: string) {
  let schema = asObject(node);
  let at = definition;
  for (let hops = 0; typeof schema.$ref === "string" && hops < 32; hops++) {
    const { $ref, ...siblings } = schema;
    at = $ref as string;
    schema = { ...asObject(follow(document, at)), ...siblings };
  }
  return { schema, definition: at };
}

/** A property's or item's site below `site`. */
function childSite(site: SchemaSite, field: string, suffix: string): SchemaSite {
  return {
    place: { ...site.place, field },
    beforeDefinition: `${site.beforeDefinition}${suffix}`,
    afterDefinition: `${site.afterDefinition}${suffix}`,
  };
}

/** Compares two schemas at `site`, descending into properties and items. */
export function compareSchemas(
  walk: Walk,
  beforeNode: Json | undefined,
  afterNode: Json | undefined,
  site: SchemaSite,
) {
  const before = resolveSchema(walk.before, beforeNode, site.beforeDefinition);
  const after = resolveSchema(walk.after, afterNode, site.afterDefinition);
  const key = `${site.place.direction} ${before.definition} ${after.definition}`;
  if (walk.active.has(key)) return;
  walk.active.add(key);
  const at: SchemaSite = { ...site, beforeDefinition: before.definition, afterDefinition: after.definition };
  for (const compare of KEYWORD_COMPARERS) compare(walk, before.schema, after.schema, at);
  walk.active.delete(key);
}

const typesOf = (schema: JsonObject): string[] => {
  const { type } = schema;
  if (typeof type === "string") return [type];
  return Array.isArray(type) ? type.filter((entry): entry is string => typeof entry === "string") : ALL_TYPES;
};
const covers = (types: string[], type: string) =>
  types.includes(type) || (type === "integer" && types.includes("number"));

const compareTypes: Compare = (walk, before, after, site) => {
  const was = typesOf(before);
  const is = typesOf(after);
  const relation = combine(
    was.some((type) => !covers(is, type)) ? "narrowed" : "same",
    is.some((type) => !covers(was, type)) ? "widened" : "same",
  );
  if (relation === "same") return;
  const name = (schema: JsonObject, types: string[]) => (schema.type === undefined ? "any" : types.join(" or "));
  note(walk, site, "type", `type ${name(before, was)} → ${name(after, is)}`, relation);
};

const valuesOf = (schema: JsonObject): Json[] | undefined =>
  Array.isArray(schema.enum) ? schema.enum : schema.const !== undefined ? [schema.const] : undefined;

const compareValues: Compare = (walk, before, after, site) => {
  const was = valuesOf(before);
  const is = valuesOf(after);
  if (was === undefined && is === undefined) return;
  if (was === undefined)
    return note(walk, site, "values-listed", `now limited to ${is!.map(show).join(", ")}`, "narrowed");
  if (is === undefined) return note(walk, site, "values-unlisted", "no longer limited to a list of values", "widened");
  const request = site.place.direction === "request";
  for (const value of was.filter((old) => !is.some((now) => sameJson(old, now)))) {
    const what = request ? `no longer accepts ${show(value)}` : `no longer returns ${show(value)}`;
    note(walk, site, "value-removed", what, "narrowed");
  }
  for (const value of is.filter((now) => !was.some((old) => sameJson(old, now)))) {
    const what = request ? `accepts the new value ${show(value)}` : `may return the new value ${show(value)}`;
    note(walk, site, "value-added", what, "widened");
  }
};

/** How a bound's change moves the accepted values: a higher lower bound or a lower upper bound narrows them. */
function boundRelation(before: Json | undefined, after: Json | undefined, lower: boolean): Relation {
  if (sameJson(before, after)) return "same";
  if (typeof before !== "number") return "narrowed";
  if (typeof after !== "number") return "widened";
  return after > before === lower ? "narrowed" : "widened";
}

const compareBounds: Compare = (walk, before, after, site) => {
  for (const keyword of [...LOWER_BOUNDS, ...UPPER_BOUNDS]) {
    const relation = boundRelation(before[keyword], after[keyword], LOWER_BOUNDS.includes(keyword));
    if (relation === "same") continue;
    const what = `\`${keyword}\` ${before[keyword] ?? "none"} → ${after[keyword] ?? "none"}`;
    note(walk, site, keyword, what, relation);
  }
};

const textRuleOf = (schema: JsonObject): TextRule => ({
  pattern: typeof schema.pattern === "string" ? schema.pattern : undefined,
  noLoneSurrogates: schema["x-no-lone-surrogates"] === true,
});
const RELATION_WORDS: Record<Relation, string> = {
  same: "accepts the same strings",
  narrowed: "accepts fewer strings",
  widened: "accepts more strings",
  changed: "accepts other strings",
};

const compareText: Compare = (walk, before, after, site) => {
  const was = textRuleOf(before);
  const is = textRuleOf(after);
  if (was.pattern === is.pattern && was.noLoneSurrogates === is.noLoneSurrogates) return;
  const relation = compareTextRules(was, is);
  const parts: string[] = [];
  if (was.pattern !== is.pattern) parts.push(`pattern ${show(was.pattern ?? "none")} → ${show(is.pattern ?? "none")}`);
  if (was.noLoneSurrogates !== is.noLoneSurrogates)
    parts.push(is.noLoneSurrogates ? "lone surrogates rejected (x-no-lone-surrogates)" : "lone surrogates accepted");
  const what = `${parts.join("; ")}: ${RELATION_WORDS[relation]}`;
  note(walk, site, "text-rule", what, relation === "same" ? DOCUMENTATION_ONLY : relation);
};

/** The integer range a schema allows with its bounds and an integer format, or undefined for other formats. */
function integerRange(schema: JsonObject, format: Json | undefined): [number, number] | undefined {
  if (format !== undefined && (typeof format !== "string" || INTEGER_FORMATS[format] === undefined)) return undefined;
  const [low, high] = format === undefined ? [-Infinity, Infinity] : INTEGER_FORMATS[format]!;
  const minimum = typeof schema.minimum === "number" ? schema.minimum : -Infinity;
  const maximum = typeof schema.maximum === "number" ? schema.maximum : Infinity;
  return [Math.max(low, minimum), Math.min(high, maximum)];
}

const compareFormat: Compare = (walk, before, after, site) => {
  if (sameJson(before.format, after.format)) return;
  const what = `format ${show(before.format ?? "none")} → ${show(after.format ?? "none")}`;
  // The range an integer format allows, under the bounds of the current schema (bound changes are their own finding).
  const was = integerRange(after, before.format);
  const is = integerRange(after, after.format);
  if (was !== undefined && is !== undefined) {
    const relation = combine(boundRelation(was[0], is[0], true), boundRelation(was[1], is[1], false));
    // Same values either way: a minor change all the same, since generated code may pick another integer type.
    if (relation === "same")
      return note(walk, site, "format", `${what}, the same values`, { clients: "compatible", servers: "compatible" });
    return note(walk, site, "format", what, relation);
  }
  const relation = before.format === undefined ? "narrowed" : after.format === undefined ? "widened" : "changed";
  note(walk, site, "format", what, relation);
};

const namesOf = (value: Json | undefined) =>
  Array.isArray(value) ? value.filter((entry): entry is string => typeof entry === "string") : [];

const compareProperties: Compare = (walk, before, after, site) => {
  const was = asObject(before.properties);
  const is = asObject(after.properties);
  const request = site.place.direction === "request";
  for (const name of keysOfEither(was, is)) {
    const child = childSite(site, childField(site.place.field, name), `/properties/${pointerToken(name)}`);
    if (name in was && name in is) compareSchemas(walk, was[name], is[name], child);
    else if (name in was) {
      const servers = !request && after.additionalProperties === false ? "breaking" : "compatible";
      note(walk, child, "field-removed", "field removed", { clients: "breaking", servers });
    } else {
      const required = namesOf(after.required).includes(name);
      const what = request
        ? `new ${required ? "required" : "optional"} field`
        : `new field${required ? ", always present" : ""}`;
      note(walk, child, "field-added", what, {
        clients: request && required ? "breaking" : "compatible",
        servers: request || required ? "breaking" : "compatible",
      });
    }
  }
};

const compareRequired: Compare = (walk, before, after, site) => {
  const was = namesOf(before.required);
  const is = namesOf(after.required);
  const wasDeclared = asObject(before.properties);
  const isDeclared = asObject(after.properties);
  const request = site.place.direction === "request";
  for (const name of new Set([...was, ...is])) {
    if (was.includes(name) === is.includes(name)) continue;
    // A field added or removed with the change is reported as such, required or not.
    if (name in wasDeclared !== name in isDeclared) continue;
    const nowRequired = is.includes(name);
    const what = request
      ? nowRequired
        ? "now required"
        : "now optional"
      : nowRequired
        ? "now always present"
        : "may now be omitted";
    const child = childSite(site, childField(site.place.field, name), `/properties/${pointerToken(name)}`);
    note(walk, child, "required", what, nowRequired ? "narrowed" : "widened");
  }
};

const compareAdditional: Compare = (walk, before, after, site) => {
  const was = before.additionalProperties ?? true;
  const is = after.additionalProperties ?? true;
  if (sameJson(was, is)) return;
  if (typeof was === "object" && typeof is === "object")
    return compareSchemas(walk, was, is, childSite(site, `${site.place.field}{}`, "/additionalProperties"));
  if (was === true && is === false)
    return note(walk, site, "unknown-fields", "unknown fields now rejected", "narrowed");
  if (was === false && is === true) return note(walk, site, "unknown-fields", "unknown fields now accepted", "widened");
  note(walk, site, "unknown-fields", "`additionalProperties` changed", "changed");
};

const compareItems: Compare = (walk, before, after, site) => {
  if (before.items === undefined && after.items === undefined) return;
  compareSchemas(walk, before.items ?? {}, after.items ?? {}, childSite(site, `${site.place.field}[]`, "/items"));
};

/** `x-error-code`, and the error catalog's `x-httpStatus` and `x-retry`: the codes, statuses and retry classes clients branch on. */
const compareCodeExtensions: Compare = (walk, before, after, site) => {
  if (!sameJson(before["x-error-code"], after["x-error-code"])) {
    const code = (value: Json | undefined) => show(value ?? "REQUEST_INVALID");
    const what = `violations answer ${code(after["x-error-code"])} instead of ${code(before["x-error-code"])}`;
    note(walk, site, "error-code", what, "changed");
  }
  for (const [keyword, label] of [
    ["x-httpStatus", "HTTP status"],
    ["x-retry", "retry class"],
  ] as const) {
    const was = asObject(before[keyword]);
    const is = asObject(after[keyword]);
    // Entries added with a new code are reported with the code itself.
    for (const code of Object.keys(was).filter((name) => !sameJson(was[name], is[name])))
      note(walk, site, keyword, `\`${code}\`: ${label} ${show(was[code])} → ${show(is[code] ?? "none")}`, "changed");
  }
};

const compareDocumentation: Compare = (walk, before, after, site) => {
  // A pattern's message changes with the pattern, which is reported on its own.
  const patternChanged = !sameJson(before.pattern, after.pattern);
  const keywords = DOCUMENTATION_KEYWORDS.filter((keyword) => !(patternChanged && keyword === "x-pattern-message"));
  if (keywords.some((keyword) => !sameJson(before[keyword], after[keyword])))
    note(walk, site, "documentation", "descriptions or examples changed", DOCUMENTATION_ONLY);
};

const HANDLED = new Set([
  ...DOCUMENTATION_KEYWORDS,
  ...LOWER_BOUNDS,
  ...UPPER_BOUNDS,
  "type",
  "enum",
  "const",
  "pattern",
  "x-no-lone-surrogates",
  "format",
  "properties",
  "required",
  "additionalProperties",
  "items",
  "x-error-code",
  "x-httpStatus",
  "x-retry",
]);

const compareOthers: Compare = (walk, before, after, site) => {
  for (const keyword of keysOfEither(before, after).filter((name) => !HANDLED.has(name)))
    if (!sameJson(before[keyword], after[keyword])) note(walk, site, "keyword", `\`${keyword}\` changed`, "changed");
};

const KEYWORD_COMPARERS: Compare[] = [
  compareTypes,
  compareValues,
  compareBounds,
  compareText,
  compareFormat,
  compareProperties,
  compareRequired,
  compareAdditional,
  compareItems,
  compareCodeExtensions,
  compareDocumentation,
  compareOthers,
];
