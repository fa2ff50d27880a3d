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

function collect(node: unknown, where: string, found: Record<string, string>): void {
  if (Array.isArray(node)) {
    for (const [index, item] of node.entries()) collect(item, `${where}/${index}`, found);
    return;
  }
  if (node === null || typeof node !== "object") return;
  const schema = node as Record<string, unknown>;
  if (typeof schema.pattern === "string") {
    const message = schema[PATTERN_MESSAGE_KEYWORD];
    if (typeof message !== "string")
      throw new Error(`${where}: pattern ${schema.pattern} lacks ${PATTERN_MESSAGE_KEYWORD}`);
    const known = found[schema.pattern];
    if (known !== undefined && known !== message)
      throw new Error(`${where}: pattern ${schema.pattern} has two messages: "${known}" and "${message}"`);
    found[schema.pattern] = message;
  }
  for (const [key, value] of Object.entries(schema))
    if (!EXAMPLE_KEYS.has(key)) collect(value, `${where}/${key}`, found);
}

/**
 * Every `pattern` under `node` (a document's components, say) -> its `x-pattern-message`. A pattern without one
 * fails, and so does one pattern with two messages: one pattern means one thing everywhere.
 *
 * @example
 * collectPatternMessages(document.components, "#/components"); // { "^[A-Za-z0-9_-]+$": "must contain only …" }
 */
export function collectPatternMessages(node: unknown, where: string): Record<string, string> {
  const found: Record<string, string> = {};
  collect(node, where, found);
  return found;
}
