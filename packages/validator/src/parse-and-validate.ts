/**
 * Turns the raw request body into the operation's typed, validated and trimmed body (the spec's request
 * schemas and the conventions of its description), or into the `error` of a 400 answer listing every offending
 * field.
 */
import type { ErrorBody, ErrorCode, OperationId, RequestBody } from "@org/webinar-types";
import { checkCombinedIds, dropBlankPhone, trimRequestFields } from "./business-rules";
import { statusOf, type ValidationIssue } from "./error-envelope";
import { validateRequestSchema, type CodedIssue } from "./request-schema";

/** The outcome of {@link parseAndValidate}. */
export type ParseResult<Op extends OperationId> =
  | { ok: true; value: RequestBody<Op> }
  | { ok: false; status: number; error: ErrorBody };

/**
 * At most this many `details.errors` entries are sent: a 1 MiB body of invalid list items would otherwise
 * produce an answer many times its size. `details.omittedErrors` counts the rest.
 */
export const MAX_REPORTED_ISSUES = 50;

// fatal: invalid UTF-8 is an error, not U+FFFD. ignoreBOM: a byte order mark stays in the text, where
// JSON.parse rejects it: it is not JSON white space, and the signed bytes are the body as sent. (A lone
// surrogate can still arrive as a JSON escape such as "\ud800"; the schemas' patterns reject it.)
const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

function decode(rawBody: Uint8Array | string): string | undefined {
  if (typeof rawBody === "string") return rawBody;
  try {
    return utf8.decode(rawBody);
  } catch {
    return undefined;
  }
}

function rejected(code: ErrorCode, message: string, details: NonNullable<ErrorBody["details"]>): ParseResult<never> {
  return { ok: false, status: statusOf(code), error: { code, message, details } };
}

function bodyRejected(rule: string, message: string): ParseResult<never> {
  return rejected("REQUEST_INVALID", "request body is invalid", { errors: [{ pointer: "", rule, message }] });
}

const toIssue = ({ pointer, rule, message }: CodedIssue): ValidationIssue => ({ pointer, rule, message });

/**
 * Parses exactly one JSON object from the raw body and validates it against the operation's request schema and
 * the rules of `business-rules.ts`. Unknown fields, wrong types, ranges, patterns and lengths are 400
 * `REQUEST_INVALID` with `details.errors: [{ pointer, rule, message }]`; queryViewerWatch's id-list and cursor
 * rules are 400 `WATCH_REQUEST_INVALID` (when a request breaks rules of both codes, `REQUEST_INVALID` wins: the
 * request is malformed). On success upsertViewer's value is trimmed as the spec says and a blank `phone` is
 * dropped (it keeps the old one).
 *
 * @example
 * const result = parseAndValidate("upsertViewer", new TextEncoder().encode('{"externalUserId":" crm-000123 "}'));
 * if (result.ok) result.value.externalUserId; // "crm-000123"
 *
 * parseAndValidate("upsertViewer", '{"externalUserId":"crm-1","phone":null}');
 * // { ok: false, status: 400, error: { code: "REQUEST_INVALID", message: "request body is invalid",
 * //   details: { errors: [{ pointer: "/phone", rule: "type", message: "must be string" }] } } }
 */
export function parseAndValidate<Op extends OperationId>(
  operationId: Op,
  rawBody: Uint8Array | string,
): ParseResult<Op> {
  const text = decode(rawBody);
  if (text === undefined) return bodyRejected("utf8", "the body is not valid UTF-8");
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return bodyRejected("json", "the body is not valid JSON (exactly one JSON object, UTF-8, no byte order mark)");
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    return bodyRejected("type", "the body must be one JSON object");
  }
  const body = value as Record<string, unknown>;
  trimRequestFields(operationId, body);
  const schemaIssues = validateRequestSchema(operationId, body);
  const combined = checkCombinedIds(operationId, body);
  if (schemaIssues.length > 0 || combined !== undefined) {
    const issues = [...schemaIssues];
    if (combined !== undefined) issues.push(combined);
    const reported = issues.slice(0, MAX_REPORTED_ISSUES).map(toIssue);
    const details: NonNullable<ErrorBody["details"]> = { errors: reported };
    if (issues.length > reported.length) details.omittedErrors = issues.length - reported.length;
    if (issues.some((issue) => issue.code === "REQUEST_INVALID"))
      return rejected("REQUEST_INVALID", "request body is invalid", details);
    if (combined !== undefined) {
      details.count = combined.count;
      details.limit = combined.limit;
      return rejected(
        "WATCH_REQUEST_INVALID",
        `uids and externalUserIds together hold at most ${combined.limit} items`,
        details,
      );
    }
    return rejected("WATCH_REQUEST_INVALID", `${reported[0]!.pointer.slice(1)} ${reported[0]!.message}`, details);
  }
  dropBlankPhone(operationId, body);
  return { ok: true, value: body as RequestBody<Op> };
}
