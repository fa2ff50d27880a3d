/**
 * Every Open API answer a test receives is checked against the spec with the validator's `validateResponse`
 * (status documented for the operation, body valid for it, error code among that response's x-error-codes), and
 * against the server's own rule that `requestId` is in the body and in `X-Request-Id`. The checking `fetch`
 * records violations instead of throwing, so the client under test sees the answer unchanged; each suite
 * asserts the list is empty after every test.
 */
import { operations, type OperationId } from "@org/webinar-types";
import { validateResponse } from "@org/webinar-validator/contract";

const operationByPath = new Map<string, OperationId>(
  Object.entries(operations).map(([id, operation]) => [operation.path, id as OperationId]),
);

/** Checks one answer; returns the problems found. */
export async function checkAnswer(path: string, response: Response): Promise<string[]> {
  const operationId = operationByPath.get(path);
  if (operationId === undefined) return [];
  const problems: string[] = [];
  const text = await response.clone().text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return [`${operationId} ${response.status}: body is not JSON: ${text.slice(0, 200)}`];
  }
  const result = validateResponse(operationId, response.status, body);
  if (!result.valid)
    problems.push(`${operationId} ${response.status}: ${JSON.stringify(result.errors)} in ${text.slice(0, 300)}`);
  const requestId = (body as { requestId?: unknown }).requestId;
  if (typeof requestId !== "string" || response.headers.get("x-request-id") !== requestId) {
    problems.push(
      `${operationId} ${response.status}: requestId ${String(requestId)} and X-Request-Id ${response.headers.get("x-request-id")} differ`,
    );
  }
  return problems;
}

/** A `fetch` that records contract violations of Open API answers in `violations`. */
export function contractCheckingFetch(violations: string[]): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    const response = await fetch(request);
    violations.push(...(await checkAnswer(new URL(request.url).pathname, response)));
    return response;
  };
}
