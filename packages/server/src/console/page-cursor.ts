/**
 * Cursors of the console's lists (request log, audit list, webinars): the last row's key, as base64url JSON. They
 * carry no secret and choose no rows the person could not list anyway (every query is scoped to the person's
 * merchant), so they need no MAC; a cursor that does not decode answers 400 REQUEST_INVALID.
 */
import { ServiceError } from "../errors";

export function encodeCursor(key: readonly (string | number)[]): string {
  return Buffer.from(JSON.stringify(key), "utf8").toString("base64url");
}

/** The key of a cursor, or undefined for no cursor; `shape` lists the type of each element. */
export function decodeCursor(
  cursor: string | undefined,
  shape: readonly ("string" | "number")[],
): (string | number)[] | undefined {
  if (cursor === undefined) return undefined;
  let key: unknown;
  try {
    key = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
  } catch {
    key = undefined;
  }
  if (!Array.isArray(key) || key.length !== shape.length || key.some((value, i) => typeof value !== shape[i]))
    throw new ServiceError("REQUEST_INVALID", "the cursor is not one this API answered", {
      errors: [{ pointer: "/cursor", rule: "cursor", message: "must be a nextCursor this API answered, unchanged" }],
    });
  return key as (string | number)[];
}
