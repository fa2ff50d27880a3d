/**
 * What the spec answers to a request body, decided by the kit alone: the operation's request schema (generated
 * from the spec into request-schemas.gen.ts, judged by the kit's own schema reading) and the rules of the spec's
 * prose that a schema cannot say. The `fuzz.*` checks judge a server by this verdict, so a server's own validator
 * is never the judge of itself.
 *
 * - The body is exactly one JSON object (else 400 `REQUEST_INVALID`).
 * - upsertViewer's `externalUserId` and a `displayName` string are trimmed before their rules apply (the spec:
 *   "trimmed, non-empty, at most 191 Unicode characters"; a tab at either end is trimmed away, not refused).
 * - A property's `x-error-code` names the code of its own size, length and pattern rules (queryViewerWatch's
 *   lists and cursor: `WATCH_REQUEST_INVALID`); a value of the wrong type, an item of a list and every other
 *   field are `REQUEST_INVALID`, which wins when a body breaks rules of both codes (it is malformed).
 * - queryViewerWatch's `uids` and `externalUserIds` hold at most 300 items together, duplicates counted
 *   (`WATCH_REQUEST_INVALID`).
 */
import { limits, type OperationId } from "@org/webinar-types";
import { requestSchemas } from "../request-schemas.gen";
import { schemaIssues } from "./schema-issues";

export type RequestVerdict =
  | { ok: true }
  | { ok: false; status: 400; code: "REQUEST_INVALID" | "WATCH_REQUEST_INVALID"; why: string };

const TRIMMED: Partial<Record<OperationId, readonly string[]>> = { upsertViewer: ["externalUserId", "displayName"] };

const invalid = (why: string): RequestVerdict => ({ ok: false, status: 400, code: "REQUEST_INVALID", why });

const lengthOf = (value: unknown) => (Array.isArray(value) ? value.length : 0);

/** The spec's verdict on the body `text` of `operationId`. */
export function requestVerdict(operationId: OperationId, text: string): RequestVerdict {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return invalid("the body is not JSON");
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) return invalid("the body is no object");
  const body = { ...(value as Record<string, unknown>) };
  for (const field of TRIMMED[operationId] ?? []) {
    const inner = body[field];
    if (typeof inner === "string") body[field] = inner.trim();
  }
  const issues = schemaIssues(requestSchemas[operationId], body);
  const malformed = issues.find((issue) => issue.code === undefined);
  if (malformed !== undefined) return invalid(`${malformed.pointer || "the body"} breaks ${malformed.keyword}`);
  const combined = operationId === "queryViewerWatch" ? lengthOf(body.uids) + lengthOf(body.externalUserIds) : 0;
  const watchIssue = issues[0];
  if (watchIssue !== undefined || combined > limits.maxCombinedIds)
    return {
      ok: false,
      status: 400,
      code: "WATCH_REQUEST_INVALID",
      why:
        watchIssue === undefined
          ? `uids and externalUserIds hold ${combined} items together`
          : `${watchIssue.pointer} breaks ${watchIssue.keyword}`,
    };
  return { ok: true };
}
