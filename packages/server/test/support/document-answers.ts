/**
 * Every answer of the admin, console and watch APIs a test receives through the shared callers (harness.ts's
 * admin caller, console-client.ts's console person) is checked against its document, as the Open API's are
 * against the spec (contract.ts): the status is documented for the operation, the JSON body is valid against the
 * schema of that status, and `requestId` is in the body and in `X-Request-Id`. A violation throws, so the test
 * that received the answer fails where it called. Paths that are no operation (the console's pages, a 404 probe)
 * and answers that are not JSON (the CSV export) are not checked here.
 */
import type { ValidateFunction } from "ajv";
import { createDocumentAjv, type DocumentName, loadServerDocument } from "../../scripts/server-document";

interface CheckedOperation {
  operationId: string;
  method: string;
  pattern: RegExp;
  validators: Map<string, ValidateFunction>;
}

const ajv = createDocumentAjv();
// The documents' schemas carry OpenAPI's `example` beside JSON Schema's keywords; it only annotates.
if (ajv.getKeyword("example") === false) ajv.addKeyword("example");
const loaded = new Map<DocumentName, CheckedOperation[]>();

/** The document's operations with their path templates as patterns and their compiled answer schemas. */
function operationsOf(name: DocumentName): CheckedOperation[] {
  let operations = loaded.get(name);
  if (operations === undefined) {
    operations = loadServerDocument(name).operations.map((operation) => ({
      operationId: operation.operationId,
      method: operation.method.toUpperCase(),
      pattern: new RegExp(`^${operation.path.replace(/\{[A-Za-z]+\}/g, "[^/]+")}$`),
      validators: new Map(
        Object.entries(operation.responseSchemas).map(([status, schema]) => [status, ajv.compile(schema as object)]),
      ),
    }));
    loaded.set(name, operations);
  }
  return operations;
}

/** The problems of one answer of `document` (none for a request that is no operation of it). */
export function documentAnswerProblems(
  document: DocumentName,
  request: { method: string; path: string },
  answer: { status: number; headers: Headers; text: string },
): string[] {
  const pathname = new URL(request.path, "http://x").pathname;
  const operation = operationsOf(document).find(
    (candidate) => candidate.method === request.method.toUpperCase() && candidate.pattern.test(pathname),
  );
  if (operation === undefined) return [];
  if (!(answer.headers.get("content-type")?.startsWith("application/json") ?? false)) return [];
  const label = `${document} ${operation.operationId} ${answer.status}`;
  const validate = operation.validators.get(String(answer.status));
  if (validate === undefined) return [`${label}: status not documented for the operation`];
  const body = JSON.parse(answer.text) as { requestId?: unknown };
  const problems = validate(body)
    ? []
    : [`${label}: ${JSON.stringify(validate.errors)} in ${answer.text.slice(0, 300)}`];
  if (typeof body.requestId !== "string" || answer.headers.get("x-request-id") !== body.requestId)
    problems.push(`${label}: requestId ${String(body.requestId)} and X-Request-Id differ`);
  return problems;
}

/** Throws when the answer breaks its document; see the module comment. */
export function checkDocumentAnswer(
  document: DocumentName,
  request: { method: string; path: string },
  answer: { status: number; headers: Headers; text: string },
): void {
  const problems = documentAnswerProblems(document, request, answer);
  if (problems.length > 0) throw new Error(`an answer breaks ${document}-openapi.yaml:\n${problems.join("\n")}`);
}
