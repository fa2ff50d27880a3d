/** JSON values as the checker reads them from a parsed OpenAPI document, and the little it needs to walk them. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

export const isObject = (value: Json | undefined): value is JsonObject =>
  value !== null && typeof value === "object" && !Array.isArray(value);

export const asObject = (value: Json | undefined): JsonObject => (isObject(value) ? value : {});

/** Structural equality of JSON values (object key order does not matter). */
export function sameJson(left: Json | undefined, right: Json | undefined): boolean {
  if (left === right) return true;
  if (left === undefined || right === undefined || left === null || right === null) return false;
  if (Array.isArray(left) || Array.isArray(right)) {
    if (!Array.isArray(left) || !Array.isArray(right) || left.length !== right.length) return false;
    return left.every((item, index) => sameJson(item, right[index]));
  }
  if (typeof left !== "object" || typeof right !== "object") return false;
  const keys = Object.keys(left);
  if (keys.length !== Object.keys(right).length) return false;
  return keys.every((key) => Object.hasOwn(right, key) && sameJson(left[key], right[key]));
}

/** One JSON pointer token, escaped. */
export const pointerToken = (token: string) => token.replaceAll("~", "~0").replaceAll("/", "~1");

/** Follows a local reference (`#/components/...`) in `document`; undefined when it does not resolve. */
export function follow(document: JsonObject, ref: string): Json | undefined {
  if (!ref.startsWith("#/")) return undefined;
  let node: Json | undefined = document;
  for (const raw of ref.slice(2).split("/")) {
    const token = raw.replaceAll("~1", "/").replaceAll("~0", "~");
    node = isObject(node) ? node[token] : undefined;
  }
  return node;
}

/** Keys of either object, in first-seen order. */
export const keysOfEither = (left: JsonObject, right: JsonObject) => [
  ...new Set([...Object.keys(left), ...Object.keys(right)]),
];
