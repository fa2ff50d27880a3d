/**
 * A check: an id, a title naming the rule it checks, and a run that either returns (pass, with an optional
 * detail), throws a {@link CheckFailure} (fail, with what was expected and what came back), or returns a
 * {@link Skip} when the server or the options give it nothing to check.
 */
import type { ErrorCode } from "@org/webinar-types";
import { errorCodeOf, printableBody, statusLine, type Answer } from "./answer";
import type { RunContext } from "./run-context";

/** A check could not be run: what it needs and does not have. */
export interface Skip {
  skip: string;
}

export interface Check {
  /** Stable and dotted, from the group to the case: `signing.missing-header.x-nonce`. */
  id: string;
  /** The rule, as the report shows it. */
  title: string;
  run(context: RunContext): Promise<string | undefined | Skip>;
  /**
   * Whether a 503 is an answer this check expects. Any other 5xx answer to a request of a check fails it, whatever
   * the check itself judged: a server error is never a conforming answer.
   */
  allows503?: boolean;
}

/** Thrown by a check whose expectation was not met; the message is the report's detail. */
export class CheckFailure extends Error {
  override name = "CheckFailure";
}

export const skip = (reason: string): Skip => ({ skip: reason });

/** Fails the check with `detail` unless `condition` holds. */
export function ensure(condition: boolean, detail: string): asserts condition {
  if (!condition) throw new CheckFailure(detail);
}

function describe(answer: Answer): string {
  return `${answer.request} answered ${statusLine(answer)} ${printableBody(answer)}`;
}

function ensureMatchesSpec(answer: Answer): void {
  if (answer.problems.length > 0)
    throw new CheckFailure(
      `${answer.request} answered ${statusLine(answer)}, which does not match the spec's response schema: ${answer.problems.join("; ")}`,
    );
}

/** The answer is the success envelope, valid against the operation's schema. */
export function expectSuccess(answer: Answer, what = "a success (200)"): void {
  if (answer.status !== 200) throw new CheckFailure(`expected ${what}; ${describe(answer)}`);
  ensureMatchesSpec(answer);
}

/** The answer is an error envelope with `status` and one of `codes`, valid against the operation's schema. */
export function expectError(answer: Answer, status: number, codes: readonly ErrorCode[]): void {
  const code = errorCodeOf(answer);
  if (answer.status !== status || code === undefined || !codes.includes(code as ErrorCode)) {
    throw new CheckFailure(`expected ${status} ${codes.join(" or ")}; ${describe(answer)}`);
  }
  ensureMatchesSpec(answer);
}

/**
 * The answer is one of several the spec allows, each a status with its codes (an empty list: any body, for a
 * gateway's 413). Every allowed answer must still match the spec.
 */
export function expectOneOf(answer: Answer, allowed: ReadonlyArray<readonly [number, readonly ErrorCode[]]>): void {
  const code = errorCodeOf(answer);
  const match = allowed.find(
    ([status, codes]) => answer.status === status && (codes.length === 0 || codes.includes(code as ErrorCode)),
  );
  if (match === undefined) {
    const expected = allowed.map(([status, codes]) => `${status}${codes.length > 0 ? ` ${codes.join("/")}` : ""}`);
    throw new CheckFailure(`expected ${expected.join(" or ")}; ${describe(answer)}`);
  }
  ensureMatchesSpec(answer);
}

/** The answer is any answer but a refusal of the body (400 with `REQUEST_INVALID` or `WATCH_REQUEST_INVALID`). */
export function expectBodyAccepted(answer: Answer): void {
  const code = errorCodeOf(answer);
  if (answer.status === 400 && (code === "REQUEST_INVALID" || code === "WATCH_REQUEST_INVALID"))
    throw new CheckFailure(`expected the body to pass validation; ${describe(answer)}`);
  if (answer.status === 401 || (answer.status === 409 && code === "OPEN_API_REPLAYED"))
    throw new CheckFailure(`expected a signed request to be verified; ${describe(answer)}`);
  ensureMatchesSpec(answer);
}

/** The success `data` of an answer already checked by {@link expectSuccess}. */
export function dataOf<T>(answer: Answer): T {
  return (answer.json as { data: T }).data;
}
