/**
 * Every answer the kit receives is judged against the spec as it arrives: an answer of an operation against that
 * operation's response schema for its status (the error envelope with one of that response's `x-error-codes`,
 * or the success envelope), and any other answer of the API against the error envelope. The problems found are
 * kept with the answer, so the check that made the request fails on them and the `answers.*` checks count them.
 */
import { errorCatalog, operations, type ErrorCode, type OperationId } from "@org/webinar-types";
import { schemaIssues } from "./oracle/schema-issues";
import { responseSchemas } from "./response-schemas.gen";
import type { WireAnswer } from "./transport";

/** An answer with what the kit knows about it. */
export interface Answer extends WireAnswer {
  /** The operation whose schema judged the answer; `undefined` for answers to paths that are no operation. */
  operationId: OperationId | undefined;
  /** The request, as the report may show it: method and target, never a header or a credential. */
  request: string;
  /** Where the answer breaks the spec; empty when it matches. */
  problems: string[];
  /** `false` for an answer from outside the API (the watch page's ticket exchange), which the spec does not shape. */
  api: boolean;
}

/** `error.code` of an error envelope, if the body has one. */
export function errorCodeOf(answer: WireAnswer): string | undefined {
  const error = (answer.json as { error?: { code?: unknown } } | undefined)?.error;
  return typeof error?.code === "string" ? error.code : undefined;
}

const operationIds = Object.keys(operations) as OperationId[];

/**
 * An operation whose response for `code`'s status lists `code` among its `x-error-codes`, so its compiled schema
 * judges an error envelope that no particular operation answered (a path that is no operation, a wrong method).
 */
function operationAccepting(code: ErrorCode): OperationId | undefined {
  const status = String(errorCatalog[code].status);
  return operationIds.find((operationId) => {
    const byStatus = operations[operationId].errors as Readonly<Record<string, readonly string[]>>;
    return byStatus[status]?.includes(code) === true;
  });
}

/** Judged by the kit's own reading of the spec's response schema for the status, never by a server's validator. */
function schemaProblems(operationId: OperationId, status: number, body: unknown): string[] {
  const schema = responseSchemas[operationId]?.[String(status)];
  if (schema === undefined) return [`${operationId} does not document status ${status}`];
  return schemaIssues(schema, body).map(
    (issue) => `${issue.pointer === "" ? "the body" : issue.pointer} breaks the schema's ${issue.keyword}`,
  );
}

/** An error envelope of the API without an operation of its own: the spec's `ErrorEnvelope` with a known code. */
function envelopeProblems(answer: WireAnswer): string[] {
  const code = errorCodeOf(answer);
  if (code === undefined || !(code in errorCatalog))
    return [`the body is not the spec's error envelope with a known error.code: ${answer.text.slice(0, 200)}`];
  const judge = operationAccepting(code as ErrorCode);
  return judge === undefined ? [] : schemaProblems(judge, errorCatalog[code as ErrorCode].status, answer.json);
}

/**
 * What is wrong with `answer` by the spec. A 413 may come from a gateway in front of the service and need not be
 * JSON (Errors and retries); every other answer is JSON.
 */
export function judgeAnswer(answer: WireAnswer, operationId: OperationId | undefined): string[] {
  if (answer.status === 413) return [];
  if (!answer.isJson) {
    const type = answer.headers["content-type"] ?? "no Content-Type";
    return [`the answer is not JSON (${type}): ${answer.text.slice(0, 120)}`];
  }
  // Answers to a path that is no operation, or to a method other than POST, have no operation of their own.
  if (operationId === undefined) return envelopeProblems(answer);
  return schemaProblems(operationId, answer.status, answer.json);
}

const SECRET_FIELDS = new Set(["loginTicket", "loginUrl"]);

/** The body as the report may show it: login tickets and login URLs replaced, at most `max` characters. */
export function printableBody(answer: WireAnswer, max = 300): string {
  if (!answer.isJson) return answer.text.slice(0, max);
  const text = JSON.stringify(answer.json, (key, value: unknown) =>
    SECRET_FIELDS.has(key) && typeof value === "string" ? "<redacted>" : value,
  );
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/** `400 REQUEST_INVALID` or `200`: the status and, for an error envelope, its code. */
export function statusLine(answer: WireAnswer): string {
  const code = errorCodeOf(answer);
  return code === undefined ? String(answer.status) : `${answer.status} ${code}`;
}
