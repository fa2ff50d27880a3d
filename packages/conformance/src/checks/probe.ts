/**
 * The request the signing and routing checks send and spoil in one way each: an upsert of this run's own viewer,
 * which a conforming server accepts again and again (it returns the same viewer), so an accepted request changes
 * nothing but that viewer.
 */
import { operations } from "@org/webinar-types";
import type { Answer } from "../answer";
import type { CallOptions, RunContext } from "../run-context";

export const UPSERT_PATH = operations.upsertViewer.path;

/** The probe's body: this run's signing viewer. */
export const probeBody = (context: RunContext) => ({ externalUserId: context.externalUserId("signing") });

/** Sends the probe with `changes` applied. */
export function probe(context: RunContext, changes: Partial<CallOptions> = {}): Promise<Answer> {
  return context.call({ operationId: "upsertViewer", body: probeBody(context), ...changes });
}
