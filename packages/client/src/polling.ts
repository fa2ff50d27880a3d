/**
 * Waiting for settled watch data (the spec's "Data states" guide, `getWatchOverview`, `queryViewerWatch`).
 * `WATCH_DATA_NOT_FINAL` is a state to wait out by polling, never an error the generic retry policy hides; waiting is
 * therefore explicit and bounded.
 */
import type { Sleep } from "./sleep";

/** How to poll: every `intervalMs` (or the server's `Retry-After`), for at most `timeoutMs`. */
export interface WaitForFinalOptions {
  /** Pause between polls. Default 5000 ms. A `Retry-After` of the answer takes precedence. */
  intervalMs?: number;
  /** Give up after this long. Default 600000 ms (10 minutes). */
  timeoutMs?: number;
}

export const DEFAULT_POLL_INTERVAL_MS = 5_000;
export const DEFAULT_POLL_TIMEOUT_MS = 600_000;

/** One poll's outcome: done with a value, or not yet (with the last answer, and the server's wait if it gave one). */
export type PollResult<T, Pending> =
  | { done: true; value: T }
  | { done: false; pending: Pending; retryAfterMs?: number | undefined };

/** Polls `poll` until it is done; when time runs out, throws `onTimeout(lastPending, timeoutMs)`. */
export async function pollUntilDone<T, Pending>(
  poll: () => Promise<PollResult<T, Pending>>,
  options: WaitForFinalOptions & { signal?: AbortSignal | undefined },
  runtime: { clock: () => number; sleep: Sleep },
  onTimeout: (last: Pending, timeoutMs: number) => Error,
): Promise<T> {
  const intervalMs = options.intervalMs ?? DEFAULT_POLL_INTERVAL_MS;
  const timeoutMs = options.timeoutMs ?? DEFAULT_POLL_TIMEOUT_MS;
  for (const [name, value] of [
    ["intervalMs", intervalMs],
    ["timeoutMs", timeoutMs],
  ] as const) {
    if (!Number.isFinite(value) || value < 0)
      throw new RangeError(`${name} must be a non-negative number, got ${value}`);
  }
  const deadline = runtime.clock() + timeoutMs;
  for (;;) {
    const result = await poll();
    if (result.done) return result.value;
    const wait = result.retryAfterMs ?? intervalMs;
    if (runtime.clock() + wait > deadline) throw onTimeout(result.pending, timeoutMs);
    await runtime.sleep(wait, options.signal);
  }
}
