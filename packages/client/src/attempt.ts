/**
 * One attempt of a call, within a time limit: from sending to the end of the answer. The limit is enforced by
 * settling the attempt from the timer as well as by aborting the attempt's signal, so a `fetch` that ignores
 * signals still times out. One promise per attempt, settled by whichever comes first: the answer, a failure, the
 * timer or the caller's abort.
 */
import { WebinarConnectionError, WebinarTimeoutError } from "./errors";

/** A `fetch` implementation as openapi-fetch calls it: with the final `Request`. The global `fetch` is one. */
export type FetchLike = (request: Request) => Promise<Response>;

/** What an attempt produced: its value, or why no answer came. */
export type AttemptResult<Value> =
  | { ok: true; value: Value }
  | { ok: false; error: WebinarConnectionError | WebinarTimeoutError };

/** The time left for an attempt: its own `timeoutMs`, or what remains of the call's deadline when that is less. */
export interface AttemptLimit {
  ms: number;
  phase: "attempt" | "deadline";
}

function messageOf(value: unknown): string {
  return value instanceof Error ? value.message : "";
}

/** A failure to get an answer, once a request was handed to `fetch`. */
export function connectionError(error: unknown, attempt: number): WebinarConnectionError {
  const cause = (error as { cause?: unknown } | undefined)?.cause;
  // undici reports a refused redirect as "fetch failed" caused by "unexpected redirect"; other fetches say "redirect".
  if (/redirect/i.test(`${messageOf(error)} ${messageOf(cause)}`)) {
    return new WebinarConnectionError("the server answered with a redirect, which a signed request never follows", {
      reason: "redirect",
      cause: error,
      attempts: attempt,
    });
  }
  const detail = messageOf(cause) || messageOf(error) || String(error);
  return new WebinarConnectionError(`could not reach the server: ${detail}`, {
    reason: "network",
    cause: error,
    attempts: attempt,
  });
}

/**
 * Runs `send` with a signal the limit and the caller's signal abort, and the `fetch` it must send through. A
 * failure after the request reached that `fetch` is a connection failure (retryable); one before it (a middleware
 * or a bad option refusing the request) is rethrown as it is. The caller's abort rejects with the caller's reason.
 */
export function attemptOnce<Value>(
  send: (signal: AbortSignal, fetch: FetchLike) => Promise<Value>,
  fetchImpl: FetchLike,
  callerSignal: AbortSignal | undefined,
  limit: AttemptLimit,
  attempt: number,
): Promise<AttemptResult<Value>> {
  callerSignal?.throwIfAborted();
  return new Promise<AttemptResult<Value>>((resolve, reject) => {
    const controller = new AbortController();
    let sent = false;
    let settled = false;
    const stop = (): boolean => {
      if (settled) return false;
      settled = true;
      clearTimeout(timer);
      callerSignal?.removeEventListener("abort", forwardAbort);
      return true;
    };
    const fail = (error: unknown): void => {
      if (!stop()) return;
      // The caller's own abort is not a failure to retry or wrap: it ends the call with the caller's reason.
      if (callerSignal?.aborted === true) reject(callerSignal.reason);
      else if (error instanceof WebinarTimeoutError) resolve({ ok: false, error });
      else if (sent) resolve({ ok: false, error: connectionError(error, attempt) });
      else reject(error);
    };
    const timer = setTimeout(() => {
      const what =
        limit.phase === "attempt"
          ? `the attempt timed out after ${limit.ms} ms`
          : "the call's overall deadline ran out";
      const error = new WebinarTimeoutError(what, { phase: limit.phase, timeoutMs: limit.ms, attempts: attempt });
      fail(error);
      controller.abort(error);
    }, limit.ms);
    const forwardAbort = (): void => {
      fail(callerSignal?.reason);
      controller.abort(callerSignal?.reason);
    };
    callerSignal?.addEventListener("abort", forwardAbort, { once: true });
    const sendingFetch: FetchLike = (request) => {
      sent = true;
      return fetchImpl(request);
    };
    send(controller.signal, sendingFetch).then((value) => {
      if (stop()) resolve({ ok: true, value });
    }, fail);
  });
}
