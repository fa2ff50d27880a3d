/**
 * The request rules of the spec that JSON Schema cannot express, in one place, applied around the generated
 * schema validation:
 *
 * - before it, `trimRequestFields`: upsertViewer's `externalUserId` and a `displayName` string are trimmed, so
 *   the schema's non-empty, length (in code points) and character rules judge the trimmed value, as the spec
 *   orders them ("trimmed, non-empty, at most 191 Unicode characters"): a padded id of 191 characters is valid,
 *   white space only becomes empty (which `minLength: 1` rejects), and a tab or line feed at either end is
 *   removed rather than rejected as a control character;
 * - after it, `checkCombinedIds`: queryViewerWatch's `uids` and `externalUserIds` together hold at most
 *   `limits.maxCombinedIds` items, duplicates counted -> `WATCH_REQUEST_INVALID`, the code the spec's
 *   `x-error-code` gives the two lists;
 * - last, `dropBlankPhone`: upsertViewer's empty or whitespace-only `phone` keeps the old value, exactly like an
 *   omitted one, so it is removed and the handler sees one representation of "keep".
 *
 * Each list on its own above 300 items, a cursor longer than 1024 characters, and every character rule (no
 * control characters, line separators or lone surrogates) are schema rules (`maxItems`, `maxLength`, `pattern`;
 * the spec's `x-no-lone-surrogates` beside a pattern is compiled into it by the generator, see
 * scripts/spec-schemas.ts `compiledPattern`); they are not repeated here. Limits come from `limits` (the spec's `x-limits`), never literals.
 */
import { limits, type OperationId } from "@org/webinar-types";
import type { CodedIssue } from "./request-schema";

type JsonObject = Record<string, unknown>;

/** Fields trimmed before validation, per operation (upsertViewer: `externalUserId`, `displayName`). */
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
 * queryViewerWatch: `uids.length + externalUserIds.length` (duplicates counted) at most `limits.maxCombinedIds`.
 * Returns the issue when the combined count is above the limit; lists that are not arrays are the schema's
 * business.
 *
 * @example
 * checkCombinedIds("queryViewerWatch", { uids: Array(150).fill(10001), externalUserIds: Array(151).fill("a") });
 * // { pointer: "", rule: "maxCombinedIds", code: "WATCH_REQUEST_INVALID", count: 301, limit: 300, ... }
 */
export function checkCombinedIds(
  operationId: OperationId,
  body: JsonObject,
): (CodedIssue & { count: number; limit: number }) | undefined {
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

const lengthOf = (value: unknown) => (Array.isArray(value) ? value.length : 0);

const BLANK = /^\s*$/;

/**
 * upsertViewer: an empty or whitespace-only `phone` keeps the current phone, like an omitted one; it is removed from
 * the validated body so "keep" has one representation. `null` never gets here: the schema rejects it.
 *
 * @example
 * const body = { externalUserId: "crm-000123", phone: "  " };
 * dropBlankPhone("upsertViewer", body); // body is now { externalUserId: "crm-000123" }
 */
export function dropBlankPhone(operationId: OperationId, body: JsonObject): void {
  if (operationId === "upsertViewer" && typeof body.phone === "string" && BLANK.test(body.phone)) delete body.phone;
}
