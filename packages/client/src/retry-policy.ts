/**
 * When a failed attempt is tried again, and after how long. The answer comes from the spec, not from the status:
 * each error code's retry class (`x-retry` of `ErrorCode`, generated into `errorCatalog`) decides. `backoff` codes
 * are retried with exponential backoff and full jitter; `never` codes (conflicts, replays, validation) and `poll`
 * codes (`WATCH_DATA_NOT_FINAL`, which is a state to wait out, not a failure) are not. No 4xx is ever retried.
 */
import { errorCatalog, type ErrorCode, type RetryClass } from "@org/webinar-types";

/** Retry settings; every field is optional and falls back to {@link defaultRetryPolicy}. */
export interface RetryOptions {
  /** Attempts in total, the first included (1 = never retry). Default 3. */
  maxAttempts?: number;
  /** Backoff before the first retry is drawn from [0, baseDelayMs); it doubles per retry. Default 250. */
  baseDelayMs?: number;
  /** Upper bound of a drawn backoff delay (not of a server's `Retry-After`). Default 5000. */
  maxDelayMs?: number;
  /** Overall budget of one call from its first attempt, retries and waits included. Default 30000. */
  deadlineMs?: number;
}

/** {@link RetryOptions} with every value resolved. */
export type RetryPolicy = Readonly<Required<RetryOptions>>;

/** The defaults: 3 attempts, 250 ms base, 5 s cap per delay, 30 s overall. */
export const defaultRetryPolicy: RetryPolicy = Object.freeze({
  maxAttempts: 3,
  baseDelayMs: 250,
  maxDelayMs: 5_000,
  deadlineMs: 30_000,
});

function positiveInteger(name: string, value: number | undefined, fallback: number, minimum: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < minimum) {
    throw new RangeError(`retry.${name} must be an integer >= ${minimum}, got ${String(value)}`);
  }
  return value;
}

/**
 * Resolves retry options over a base policy; `false` keeps the deadline but allows a single attempt.
 *
 * @example
 * resolveRetryPolicy({ maxAttempts: 5 }); // { maxAttempts: 5, baseDelayMs: 250, maxDelayMs: 5000, deadlineMs: 30000 }
 */
export function resolveRetryPolicy(
  options: RetryOptions | false | undefined,
  base: RetryPolicy = defaultRetryPolicy,
): RetryPolicy {
  if (options === false) return Object.freeze({ ...base, maxAttempts: 1 });
  if (options === undefined) return base;
  return Object.freeze({
    maxAttempts: positiveInteger("maxAttempts", options.maxAttempts, base.maxAttempts, 1),
    baseDelayMs: positiveInteger("baseDelayMs", options.baseDelayMs, base.baseDelayMs, 0),
    maxDelayMs: positiveInteger("maxDelayMs", options.maxDelayMs, base.maxDelayMs, 0),
    deadlineMs: positiveInteger("deadlineMs", options.deadlineMs, base.deadlineMs, 1),
  });
}

/** The retry class of a spec error code, or `undefined` for a code the spec does not (yet) list. */
export function retryClassOf(code: string): RetryClass | undefined {
  return Object.hasOwn(errorCatalog, code) ? errorCatalog[code as ErrorCode].retry : undefined;
}

// Without a code of the spec, only a gateway's "try again" statuses (and a 500) are worth repeating.
const TRANSIENT_STATUSES: ReadonlySet<number> = new Set([500, 502, 503, 504]);

/**
 * Whether an HTTP answer may be retried by the generic policy: a known code by its retry class (`backoff` only),
 * an answer without one (a gateway's HTML page) by a transient 5xx status. Never a 4xx.
 */
export function isRetryableAnswer(status: number, code: string | undefined): boolean {
  if (status < 500) return false;
  const retryClass = code === undefined ? undefined : retryClassOf(code);
  return retryClass === undefined ? TRANSIENT_STATUSES.has(status) : retryClass === "backoff";
}

/**
 * Exponential backoff with full jitter: a uniform draw from [0, min(maxDelayMs, baseDelayMs * 2^retryIndex)).
 * Full jitter spreads the retries of many clients that failed together instead of synchronizing them.
 *
 * @param retryIndex 0 before the first retry, 1 before the second, ...
 * @param random a uniform source in [0, 1), `Math.random` by default
 */
export function backoffDelayMs(retryIndex: number, policy: RetryPolicy, random: () => number): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** retryIndex);
  return Math.floor(random() * ceiling);
}
