/**
 * Seeded fuzzing of each operation with fast-check: bodies built from the operation's request schema (valid ones,
 * and ones broken in one way each), each signed correctly and judged by the kit's own reading of the spec
 * (oracle/request-verdict.ts, never a validator a server may share): a body the spec accepts is never refused
 * for its shape, a body it refuses gets its status and code, and nothing is a 5xx. Names and ids are mostly text
 * as people type it (fuzz/human-text.ts), so a server failing on ordinary names fails here with every seed. A failure shrinks to the smallest body that still fails;
 * the seed in the detail replays the run (`--seed`), and `--fuzz-runs` sets how many bodies each check sends.
 */
import fc from "fast-check";
import { operations, type OperationId } from "@org/webinar-types";
import { printableBody, statusLine, type Answer } from "../answer";
import { CheckFailure, expectBodyAccepted, expectError, skip, type Check } from "../check";
import { brokenArbitrary, schemaArbitrary, type Overrides } from "../fuzz/arbitraries";
import { humanText } from "../fuzz/human-text";
import { requestVerdict } from "../oracle/request-verdict";
import { requestSchemas } from "../request-schemas.gen";
import type { RunContext } from "../run-context";

type Kind = "valid" | "broken" | "names";

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

/** Judges one answer by the spec's verdict on the body sent. */
function judge(operationId: OperationId, text: string, body: unknown, answer: Answer): void {
  if (answer.status >= 500)
    throw new CheckFailure(`a server error is never a conforming answer: ${statusLine(answer)}`);
  const verdict = requestVerdict(operationId, text);
  if (!verdict.ok) {
    expectError(answer, verdict.status, [verdict.code]);
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

/** Upserts of a new viewer of this run with an id and a display name as people type them ("Qin 2", "张三 3"). */
function namesArbitrary(context: RunContext): fc.Arbitrary<unknown> {
  return fc.record({
    externalUserId: humanText(40).map((typed) => `${context.externalUserId("name")}-${typed.trim()}`),
    displayName: humanText(80),
  });
}

function arbitraryOf(context: RunContext, operationId: OperationId, kind: Kind): fc.Arbitrary<unknown> {
  if (kind === "names") return namesArbitrary(context);
  const schema = requestSchemas[operationId];
  const overrides = overridesFor(context, operationId);
  return kind === "valid" ? schemaArbitrary(schema, overrides) : brokenArbitrary(schema, overrides);
}

const TITLES: Record<Kind, (operationId: OperationId) => string> = {
  valid: (operationId) =>
    `${operationId}: bodies generated from its schema, valid by the spec -> never refused for their shape, never a 5xx`,
  broken: (operationId) => `${operationId}: bodies broken in one way each -> the spec's status and code, never a 5xx`,
  names: (operationId) =>
    `${operationId}: ids and display names as people type them (letters, digits, spaces, CJK, emoji, mixed case) -> accepted, never a 5xx`,
};

const fuzzCheck = (operationId: OperationId, kind: Kind): Check => ({
  id: `fuzz.${operationId}.${kind}`,
  title: TITLES[kind](operationId),
  async run(context) {
    const { seed, fuzzRuns } = context.options;
    if (fuzzRuns === 0) return skip("fuzzRuns is 0");
    const arbitrary = arbitraryOf(context, operationId, kind);
    // The last answer to each body, to show with the smallest failing one.
    const answerOf = new Map<string, Answer>();
    const property = fc.asyncProperty(arbitrary, async (body) => {
      const text = JSON.stringify(body) ?? "";
      const answer = await context.call({ operationId, body: undefined, rawBody: text });
      answerOf.set(text, answer);
      judge(operationId, text, body, answer);
    });
    // Names get twice the bodies: a server failing on one ordinary name in a few dozen is found with every seed.
    const numRuns = kind === "names" ? 2 * fuzzRuns : fuzzRuns;
    const details = await fc.check(property, { seed, numRuns });
    if (details.failed) throw new CheckFailure(describeFailure(details, seed, answerOf));
    return `seed ${seed}, ${details.numRuns} bodies`;
  },
});

export const fuzzChecks: Check[] = [
  ...(Object.keys(operations) as OperationId[]).flatMap((operationId) => [
    fuzzCheck(operationId, "valid"),
    fuzzCheck(operationId, "broken"),
  ]),
  fuzzCheck("upsertViewer", "names"),
];
