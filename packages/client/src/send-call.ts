/**
 * One call of a typed method: attempts through openapi-fetch, retried as the policy allows. Each attempt is a new
 * `client.raw.POST`, so it re-enters the signing middleware and goes out with a fresh timestamp, nonce and
 * signature (a nonce is replay protection, not an idempotency key).
 *
 * Retried: answers whose code has the retry class `backoff` (and gateway 5xx pages without a code), network
 * failures and attempt timeouts, while attempts and the deadline allow; the wait is the answer's `Retry-After` or
 * exponential backoff with full jitter. Once per call, a 401 OPEN_API_UNAUTHORIZED is retried at once when the
 * answer's `Date` shows the request was signed with a clock off by more than the skew threshold.
 */
import type { OperationId } from "@org/webinar-types";
import { attemptOnce, connectionError, type AttemptLimit, type FetchLike } from "./attempt";
import type { ClockSkew } from "./clock-skew";
import { readEnvelope, type Envelope } from "./envelope";
import { WebinarTimeoutError, type WebinarError } from "./errors";
import { emitLog, type RequestLogEntry, type RequestLogError, type RequestLogger } from "./request-log";
import { retryAfterMs } from "./retry-after";
import { backoffDelayMs, isRetryableAnswer, type RetryPolicy } from "./retry-policy";
import type { Sleep } from "./sleep";

/** What openapi-fetch resolves with for `parseAs: "text"`: the body text on success, the (parsed) body on error. */
export interface PostResult {
  data?: unknown;
  error?: unknown;
  response: Response;
}

/** One attempt: `client.raw.POST` of the call's operation and body, with the attempt's signal and `fetch`. */
export type Post = (signal: AbortSignal, fetch: FetchLike) => Promise<PostResult>;

/** What a client shares between its calls. */
export interface CallRuntime {
  fetch: FetchLike;
  /** Epoch milliseconds. */
  clock: () => number;
  sleep: Sleep;
  random: () => number;
  logger: RequestLogger | undefined;
  /** `undefined` when clock-skew correction is off. */
  skew: ClockSkew | undefined;
}

/** Settings of one call. */
export interface CallSettings {
  operationId: OperationId;
  /** The path as sent, base-URL prefix included, for log entries. */
  path: string;
  retry: RetryPolicy;
  /** Limit of each attempt, from sending to the end of the answer. */
  timeoutMs: number;
  /** Aborts the call, waits included. */
  signal: AbortSignal | undefined;
}

/** The final answer of a call, for the client's methods. */
export interface FinalAnswer {
  status: number;
  headers: Headers;
  /** The body as text, for diagnosing an answer that is not the API's envelope. */
  body: string;
  envelope: Envelope;
  attempts: number;
}

/** openapi-fetch hands over a success body as text (`parseAs: "text"`) and an error body JSON-parsed when it can. */
function bodyText(body: unknown): string {
  if (body === undefined) return "";
  return typeof body === "string" ? body : JSON.stringify(body);
}

/** What a log entry says of an attempt's outcome; the rest of the entry is the same for every outcome. */
type AttemptOutcome = Pick<RequestLogEntry, "status" | "requestId" | "error" | "retryInMs">;

function answerLogError(status: number, envelope: Envelope): RequestLogError | undefined {
  if (envelope.kind === "success") return undefined;
  if (envelope.kind === "error") return { name: "WebinarApiError", code: envelope.code, message: envelope.message };
  return { name: "WebinarResponseError", message: `HTTP ${status}: ${envelope.problem}` };
}

function failureLogError(error: WebinarError): RequestLogError {
  return { name: error.name, message: error.message };
}

/** Sends one call, retrying as its policy allows, and resolves with the final answer; throws when none came. */
export async function sendCall(runtime: CallRuntime, settings: CallSettings, post: Post): Promise<FinalAnswer> {
  const { clock, skew, logger } = runtime;
  const { retry, signal } = settings;
  const deadline = clock() + retry.deadlineMs;

  let attempt = 0;
  let countedAttempts = 0;
  let skewRetried = false;
  const plannedDelay = (retryAfter: string | null, serverNowMs: number): number | undefined => {
    const delay = retryAfterMs(retryAfter, serverNowMs) ?? backoffDelayMs(countedAttempts - 1, retry, runtime.random);
    return clock() + delay < deadline ? delay : undefined;
  };

  for (;;) {
    attempt += 1;
    countedAttempts += 1;
    // The correction the middleware dates this attempt with; compared after a 401 with what its answer taught.
    const correction = skew?.correctionMs() ?? 0;
    const remaining = deadline - clock();
    const limit: AttemptLimit =
      remaining < settings.timeoutMs
        ? { ms: Math.max(remaining, 0), phase: "deadline" }
        : { ms: settings.timeoutMs, phase: "attempt" };
    const started = performance.now();
    const result = await attemptOnce(post, runtime.fetch, signal, limit, attempt);
    const durationMs = performance.now() - started;
    const log = (outcome: AttemptOutcome): void =>
      emitLog(logger, {
        method: "POST",
        path: settings.path,
        operationId: settings.operationId,
        attempt,
        durationMs,
        ...outcome,
      });

    if (!result.ok) {
      const { error } = result;
      const retryable = error instanceof WebinarTimeoutError ? error.phase === "attempt" : error.reason === "network";
      const retryInMs = retryable && countedAttempts < retry.maxAttempts ? plannedDelay(null, clock()) : undefined;
      log({
        status: undefined,
        requestId: undefined,
        error: failureLogError(error),
        ...(retryInMs === undefined ? {} : { retryInMs }),
      });
      if (retryInMs === undefined) throw error;
      await runtime.sleep(retryInMs, signal);
      continue;
    }

    const { response, data, error } = result.value;
    const { status } = response;
    if (status >= 300 && status < 400) {
      // Only a fetch that ignores `redirect: "error"` gets here; refuse the redirect all the same.
      const refused = connectionError(new Error("unexpected redirect"), attempt);
      log({ status, requestId: undefined, error: failureLogError(refused) });
      throw refused;
    }
    const body = bodyText(response.ok ? data : error);
    const envelope = readEnvelope(status, body);
    const code = envelope.kind === "error" ? envelope.code : undefined;
    let retryInMs: number | undefined;
    if (!response.ok) {
      if (status === 401 && code === "OPEN_API_UNAUTHORIZED" && !skewRetried && skew?.wasSkewed(correction) === true) {
        // Signed with a clock the server's Date shows to be off: once, re-sign with the corrected clock.
        skewRetried = true;
        countedAttempts -= 1;
        retryInMs = 0;
      } else if (countedAttempts < retry.maxAttempts && isRetryableAnswer(status, code)) {
        const dateHeader = response.headers.get("date");
        const serverNow = dateHeader === null ? Number.NaN : Date.parse(dateHeader);
        retryInMs = plannedDelay(
          response.headers.get("retry-after"),
          Number.isNaN(serverNow) ? clock() + (skew?.offsetMs ?? 0) : serverNow,
        );
      }
    }
    const logError = answerLogError(status, envelope);
    log({
      status,
      requestId: envelope.requestId,
      ...(logError === undefined ? {} : { error: logError }),
      ...(retryInMs === undefined ? {} : { retryInMs }),
    });
    if (retryInMs === undefined) return { status, headers: response.headers, body, envelope, attempts: attempt };
    if (retryInMs > 0) await runtime.sleep(retryInMs, signal);
  }
}
