/**
 * Helpers of the checks that work with viewers: upserts that must succeed, with this run's own external ids and
 * phones, so every run starts from viewers no earlier run touched.
 */
import type { UpsertViewerRequest, UpsertViewerResult, Viewer } from "@org/webinar-types";
import type { Answer } from "../answer";
import { dataOf, ensure, expectSuccess } from "../check";
import type { Credentials } from "../credentials";
import type { RunContext } from "../run-context";

/** Sends one upsert. */
export function upsert(context: RunContext, body: unknown, credentials?: Credentials): Promise<Answer> {
  return context.call({ operationId: "upsertViewer", body, ...(credentials === undefined ? {} : { credentials }) });
}

/** An upsert that must succeed; returns its `data`. */
export async function upsertOk(
  context: RunContext,
  body: UpsertViewerRequest,
  credentials?: Credentials,
): Promise<UpsertViewerResult> {
  const answer = await upsert(context, body, credentials);
  expectSuccess(answer);
  return dataOf<UpsertViewerResult>(answer);
}

/** A viewer created by this call (`created: true`) for a new external id of this run. */
export async function createViewer(
  context: RunContext,
  label: string,
  fields: Omit<UpsertViewerRequest, "externalUserId"> = {},
  credentials?: Credentials,
): Promise<Viewer> {
  const externalUserId = context.externalUserId(label);
  const result = await upsertOk(context, { externalUserId, ...fields }, credentials);
  ensure(result.created, `a new externalUserId ${externalUserId} answered created: false`);
  return result.viewer;
}

/** The viewer as the server has it now: an upsert with only its external id changes nothing. */
export async function currentViewer(context: RunContext, externalUserId: string): Promise<Viewer> {
  return (await upsertOk(context, { externalUserId })).viewer;
}

/** Fails unless `actual` has every field of `expected`. */
export function ensureViewer(actual: Viewer, expected: Partial<Viewer>, what: string): void {
  const wrong = (Object.keys(expected) as Array<keyof Viewer>).filter((field) => actual[field] !== expected[field]);
  ensure(
    wrong.length === 0,
    `${what}: ${wrong.map((field) => `${field} is ${JSON.stringify(actual[field])}, expected ${JSON.stringify(expected[field])}`).join("; ")}`,
  );
}
