/**
 * Seeded fuzzing of each operation with fast-check: bodies built from the operation's request schema (valid ones,
 * and ones broken in one way each), each signed correctly and judged by the spec's own validator
 * (`parseAndValidate` of @org/webinar-validator): a body it accepts is never refused for its shape, a body it
 * refuses gets its status and code, and nothing is a 5xx. A failure shrinks to the smallest body that still fails;
 * the seed in the detail replays the run (`--seed`), and `--fuzz-runs` sets how many bodies each check sends.
 */
import fc from "fast-check";
import { operations, type OperationId } from "@org/webinar-types";
import { parseAndValidate } from "@org/webinar-validator";
import { printableBody, statusLine, type Answer } from "../answer";
import { CheckFailure, expectBodyAccepted, expectError, skip, type Check } from "../check";
import { brokenArbitrary, schemaArbitrary, type Overrides } from "../fuzz/arbitraries";
import { requestSchemas } from "../request-schemas.gen";
import type { RunContext } from "../run-context";

type Kind = "valid" | "broken";

/** The run's webinar most of the time, so valid bodies reach past the lookup; viewers of the run's own ids. */
function overridesFor(context: RunContext, operationId: OperationId): Overrides {
  const schema = requestSchemas[operationId];
  const ticketCode = schema.properties?.["ticketCode"];
  return {
    ...(ticketCode === undefined
      ? {}
      : {
          ticketCode: fc.oneof(
            { arbitrary: fc.constant(context.options.ticketCode), weight: 3 },
            { arbitrary: schemaArbitrary(ticketCode), weight: 1 },
          ),
        }),
    ...(operationId === "upsertViewer"
      ? { externalUserId: fc.string({ maxLength: 20 }).map((tail) => `${context.externalUserId("fuzz")}-${tail}`) }
      : {}),
  };
}

const hasCursor = (body: unknown) => typeof body === "object" && body !== null && "cursor" in body;

/** Judges one answer by the validator's verdict on the body sent. */
function judge(operationId: OperationId, text: string, body: unknown, answer: Answer): void {
  if (answer.status >= 500)
    throw new CheckFailure(`a server error is never a conforming answer: ${statusLine(answer)}`);
  const verdict = parseAndValidate(operationId, text);
  if (!verdict.ok) {
    expectError(answer, verdict.status, [verdict.error.code]);
    return;
  }
  // A cursor the fuzzer made up matches no query: its 400 WATCH_REQUEST_INVALID is the spec's answer.
  if (hasCursor(body) && answer.status === 400) expectError(answer, 400, ["WATCH_REQUEST_INVALID"]);
  else expectBodyAccepted(answer);
}

function describeFailure(details: fc.RunDetails<[unknown]>, seed: number, answerOf: Map<string, Answer>): string {
  const [body] = details.counterexample ?? [undefined];
  const text = JSON.stringify(body);
  const answer = answerOf.get(text);
  const reason = details.errorInstance instanceof Error ? details.errorInstance.message : String(details.errorInstance);
  return `seed ${seed} (replay with --seed ${seed}), after ${details.numShrinks} shrinks the smallest failing body ${
    text.length > 300 ? `${text.slice(0, 300)}…` : text
  }${answer === undefined ? "" : ` was answered ${statusLine(answer)} ${printableBody(answer, 200)}`}: ${reason}`;
}

const fuzzCheck = (operationId: OperationId, kind: Kind): Check => ({
  id: `fuzz.${operationId}.${kind}`,
  title:
    kind === "valid"
      ? `${operationId}: bodies generated from its schema, valid by the spec -> never refused for their shape, never a 5xx`
      : `${operationId}: bodies broken in one way each -> the spec's status and code, never a 5xx`,
  async run(context) {
    const { seed, fuzzRuns } = context.options;
    if (fuzzRuns === 0) return skip("fuzzRuns is 0");
    const schema = requestSchemas[operationId];
    const overrides = overridesFor(context, operationId);
    const arbitrary = kind === "valid" ? schemaArbitrary(schema, overrides) : brokenArbitrary(schema, overrides);
    // The last answer to each body, to show with the smallest failing one.
    const answerOf = new Map<string, Answer>();
    const property = fc.asyncProperty(arbitrary, async (body) => {
      const text = JSON.stringify(body) ?? "";
      const answer = await context.call({ operationId, body: undefined, rawBody: text });
      answerOf.set(text, answer);
      judge(operationId, text, body, answer);
    });
    const details = await fc.check(property, { seed, numRuns: fuzzRuns });
    if (details.failed) throw new CheckFailure(describeFailure(details, seed, answerOf));
    return `seed ${seed}, ${details.numRuns} bodies`;
  },
});

export const fuzzChecks: Check[] = (Object.keys(operations) as OperationId[]).flatMap((operationId) => [
  fuzzCheck(operationId, "valid"),
  fuzzCheck(operationId, "broken"),
]);
