/**
 * The request the signing and routing checks send and spoil in one way each: an upsert of this run's own viewer,
 * which a conforming server accepts again and again (it returns the same viewer), so an accepted request changes
 * nothing but that viewer.
 */
import { operations, type ErrorCode } from "@org/webinar-types";
import type { Answer } from "../answer";
import { expectError, expectSuccess, type Check } from "../check";
import type { CallOptions, RunContext } from "../run-context";

export const UPSERT_PATH = operations.upsertViewer.path;

/** The probe's body: this run's signing viewer. */
export const probeBody = (context: RunContext) => ({ externalUserId: context.externalUserId("signing") });

/** Sends the probe with `changes` applied. */
export function probe(context: RunContext, changes: Partial<CallOptions> = {}): Promise<Answer> {
  return context.call({ operationId: "upsertViewer", body: probeBody(context), ...changes });
}

/** How one probe is spoiled: fixed changes, or changes made from the run's context. */
export type ProbeChanges = Partial<CallOptions> | ((context: RunContext) => Partial<CallOptions>);

/** A check that sends the probe with `changes` and judges its answer with `judge`. */
export function probeCheck(id: string, title: string, changes: ProbeChanges, judge: (answer: Answer) => void): Check {
  return {
    id,
    title,
    async run(context) {
      judge(await probe(context, typeof changes === "function" ? changes(context) : changes));
      return undefined;
    },
  };
}

/** Judges an answer: the error envelope with `status` and `code`. */
export const refusedWith =
  (status: number, code: ErrorCode) =>
  (answer: Answer): void =>
    expectError(answer, status, [code]);

/** Judges an answer: the success envelope. */
export const acceptedAnswer = (answer: Answer): void => expectSuccess(answer);
