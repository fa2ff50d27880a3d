/**
 * The request rules of spec §4 that JSON Schema cannot express, in one place, applied around the generated
 * schema validation:
 *
 * - before it, `trimRequestFields`: `externalUserId` (§4.3) and a `displayName` string are trimmed, so the
 *   schema's non-empty, length (in code points) and character rules judge the trimmed value, as the spec orders
 *   them ("trimmed, non-empty, at most 191 Unicode characters"); a padded id of 191 characters is valid;
 * - after it, `checkCombinedIds`: `uids` and `externalUserIds` together hold at most `limits.maxCombinedIds`
 *   items, duplicates counted (§4.6) -> `WATCH_REQUEST_INVALID`, the code the spec's `x-error-code` gives the
 *   two lists;
 * - after it, `checkDisplayNameCharacters`: no control characters or line breaks anywhere in a `displayName`
 *   (§4.3). The spec's pattern means this, but its `\S` also matches one non-white-space control character
 *   (NUL, DEL, U+0085), so `"a\u0000b"` passes the schema; the rule is checked here until the pattern is fixed;
 * - last, `dropBlankPhone`: an empty or whitespace-only `phone` keeps the old value (§4.3), exactly like an
 *   omitted one, so it is removed and the handler sees one representation of "keep".
 *
 * Each list on its own above 300 items, and a cursor longer than 1024 characters, are schema rules (`maxItems`,
 * `maxLength`) that the `x-error-code` of those properties maps to `WATCH_REQUEST_INVALID`; they are not
 * repeated here. Limits come from `limits` (the spec's `x-limits`), never literals.
 */
import { limits, type OperationId } from "@org/webinar-types";
import type { CodedIssue } from "./request-schema";

type JsonObject = Record<string, unknown>;

/** Fields trimmed before validation, per operation (spec §4.3). */
const TRIMMED_FIELDS: { readonly [Op in OperationId]?: readonly string[] } = {
  upsertViewer: ["externalUserId", "displayName"],
};

/**
 * Trims the operation's trimmed string fields in place (JS `trim`: the same white space as the schemas' `\s`).
 * Values of other types are left for the schema to reject.
 *
 * @example
 * const body = { externalUserId: "  crm-000123 ", displayName: " 张三 " };
 * trimRequestFields("upsertViewer", body); // body is now { externalUserId: "crm-000123", displayName: "张三" }
 */
export function trimRequestFields(operationId: OperationId, body: JsonObject): void {
  const fields = TRIMMED_FIELDS[operationId];
  if (fields === undefined) return;
  for (const field of fields) {
    const value = body[field];
    if (typeof value === "string") body[field] = value.trim();
  }
}

/**
 * §4.6: `uids.length + externalUserIds.length` (duplicates counted) at most `limits.maxCombinedIds`.
 * Returns the issue when the combined count is above the limit; lists that are not arrays are the schema's
 * business.
 *
 * @example
 * checkCombinedIds("queryViewerWatch", { uids: Array(150).fill(10001), externalUserIds: Array(151).fill("a") });
 * // { pointer: "", rule: "maxCombinedIds", code: "WATCH_REQUEST_INVALID", count: 301, limit: 300, ... }
 */
export function checkCombinedIds(operationId: OperationId, body: JsonObject): (CodedIssue & { count: number; limit: number }) | undefined {
  if (operationId !== "queryViewerWatch") return undefined;
  const count = lengthOf(body.uids) + lengthOf(body.externalUserIds);
  const limit = limits.maxCombinedIds;
  if (count <= limit) return undefined;
  return {
    pointer: "",
    rule: "maxCombinedIds",
    message: `uids and externalUserIds together hold at most ${limit} items (duplicates counted), got ${count}`,
    code: "WATCH_REQUEST_INVALID",
    count,
    limit,
  };
}

// \p{Cc} is every C0 and C1 control character and DEL; U+2028 and U+2029 are the Unicode line breaks.
const CONTROL_OR_LINE_BREAK = /[\p{Cc}\u2028\u2029]/u;

/**
 * §4.3: a `displayName` string has no control characters or line breaks (checked after trimming).
 *
 * @example
 * checkDisplayNameCharacters("upsertViewer", { externalUserId: "crm-1", displayName: "a\u0000b" });
 * // { pointer: "/displayName", rule: "pattern", code: "REQUEST_INVALID", ... }
 */
export function checkDisplayNameCharacters(operationId: OperationId, body: JsonObject): CodedIssue | undefined {
  if (operationId !== "upsertViewer" || typeof body.displayName !== "string" || !CONTROL_OR_LINE_BREAK.test(body.displayName)) return undefined;
  return { pointer: "/displayName", rule: "pattern", message: "must not contain control characters or line breaks", code: "REQUEST_INVALID" };
}

const lengthOf = (value: unknown) => (Array.isArray(value) ? value.length : 0);

const BLANK = /^\s*$/;

/**
 * §4.3: an empty or whitespace-only `phone` keeps the current phone, like an omitted one; it is removed from the
 * validated body so "keep" has one representation. `null` never gets here: the schema rejects it.
 *
 * @example
 * const body = { externalUserId: "crm-000123", phone: "  " };
 * dropBlankPhone("upsertViewer", body); // body is now { externalUserId: "crm-000123" }
 */
export function dropBlankPhone(operationId: OperationId, body: JsonObject): void {
  if (operationId === "upsertViewer" && typeof body.phone === "string" && BLANK.test(body.phone)) delete body.phone;
}
