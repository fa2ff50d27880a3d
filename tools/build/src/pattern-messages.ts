/**
 * `x-pattern-message`, the vendor keyword that says in words what a schema's `pattern` asks for: the message of a
 * `details.errors` entry for that pattern, so a reader of an error never has to decode a regular expression.
 * Collected the same way from spec/openapi.yaml (the validator's generator) and from the server's own documents
 * (the server's generator).
 */

/** The keyword, beside `pattern` in a schema. */
export const PATTERN_MESSAGE_KEYWORD = "x-pattern-message";

/** Example values are data, not schemas: a `pattern` key inside one is not a pattern. */
const EXAMPLE_KEYS = new Set(["example", "examples"]);

/** The pattern a validator compiles for a schema: its `pattern`, unless a generator adds to it. */
export type PatternOf = (schema: Record<string, unknown>) => unknown;

const declaredPattern: PatternOf = (schema) => schema.pattern;

function collect(node: unknown, where: string, found: Record<string, string>, patternOf: PatternOf): void {
  if (Array.isArray(node)) {
    for (const [index, item] of node.entries()) collect(item, `${where}/${index}`, found, patternOf);
    return;
  }
  if (node === null || typeof node !== "object") return;
  const schema = node as Record<string, unknown>;
  const pattern = patternOf(schema);
  if (typeof pattern === "string") {
    const message = schema[PATTERN_MESSAGE_KEYWORD];
    if (typeof message !== "string") throw new Error(`${where}: pattern ${pattern} lacks ${PATTERN_MESSAGE_KEYWORD}`);
    const known = found[pattern];
    if (known !== undefined && known !== message)
      throw new Error(`${where}: pattern ${pattern} has two messages: "${known}" and "${message}"`);
    found[pattern] = message;
  }
  for (const [key, value] of Object.entries(schema))
    if (!EXAMPLE_KEYS.has(key)) collect(value, `${where}/${key}`, found, patternOf);
}

/**
 * Every `pattern` under `node` (a document's components, say) -> its `x-pattern-message`, keyed by the pattern as
 * the validators compile it (`patternOf`). A pattern without one fails, and so does one pattern with two messages:
 * one pattern means one thing everywhere.
 *
 * @example
 * collectPatternMessages(document.components, "#/components"); // { "^[A-Za-z0-9_-]+$": "must contain only …" }
 */
export function collectPatternMessages(
  node: unknown,
  where: string,
  patternOf: PatternOf = declaredPattern,
): Record<string, string> {
  const found: Record<string, string> = {};
  collect(node, where, found, patternOf);
  return found;
}
