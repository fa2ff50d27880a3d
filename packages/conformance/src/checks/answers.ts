/**
 * Every answer: run last, these checks count the answers of the whole run per operation and fail on any that did
 * not match the spec's response schema for its status (the success envelope, or the error envelope with a
 * `requestId` and one of that response's `x-error-codes`), and on answers without an operation (a path that is no
 * operation, a wrong method) that were not the error envelope.
 */
import { operations, type OperationId } from "@org/webinar-types";
import type { Answer } from "../answer";
import { ensure, skip, type Check } from "../check";

function summarize(answers: readonly Answer[], what: string): string | ReturnType<typeof skip> {
  if (answers.length === 0) return skip(`no ${what} answer in this run`);
  const wrong = answers.filter((answer) => answer.problems.length > 0);
  ensure(
    wrong.length === 0,
    `${wrong.length} of ${answers.length} answers do not match the spec: ${wrong
      .slice(0, 3)
      .map((answer) => `${answer.request} ${answer.status}: ${answer.problems.join("; ")}`)
      .join(" | ")}`,
  );
  return `${answers.length} answers`;
}

const operationAnswers = (operationId: OperationId): Check => ({
  id: `answers.${operationId}`,
  title: `every answer of ${operationId} in this run matches the spec's response schema for its status`,
  async run(context) {
    return summarize(
      context.answers.filter((answer) => answer.operationId === operationId),
      operationId,
    );
  },
});

function requestIdOf(answer: Answer): string | undefined {
  const requestId = (answer.json as { requestId?: unknown } | undefined)?.requestId;
  return typeof requestId === "string" ? requestId : undefined;
}

/** A trace id names one request: two answers with the same one could not be told apart by the operator. */
const uniqueRequestIds: Check = {
  id: "answers.request-id-unique",
  title: "every answer's requestId is unique within the run",
  async run(context) {
    const firstSeen = new Map<string, string>();
    const repeated: string[] = [];
    for (const answer of context.answers) {
      const requestId = answer.api ? requestIdOf(answer) : undefined;
      if (requestId === undefined) continue;
      const earlier = firstSeen.get(requestId);
      if (earlier === undefined) firstSeen.set(requestId, answer.request);
      else repeated.push(`${requestId} (${earlier}, then ${answer.request})`);
    }
    ensure(
      repeated.length === 0,
      `${repeated.length} answers repeat an earlier requestId: ${repeated.slice(0, 3).join("; ")}`,
    );
    return `${firstSeen.size} requestIds`;
  },
};

export const answerChecks: Check[] = [
  ...(Object.keys(operations) as OperationId[]).map(operationAnswers),
  {
    id: "answers.other",
    title: "every answer to a path that is no operation, or to a method other than POST, is the error envelope",
    async run(context) {
      return summarize(
        context.answers.filter((answer) => answer.api && answer.operationId === undefined),
        "such",
      );
    },
  },
  uniqueRequestIds,
];
