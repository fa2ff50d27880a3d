/**
 * The `fetch` that openapi-fetch calls: it signs and sends one call, retrying as the policy allows. Signing is
 * the last step before the bytes leave (spec §5.2, design §3): it runs after every openapi-fetch middleware, over
 * the exact bytes sent, with the URL's real path, and it is redone on every attempt with a fresh timestamp, nonce
 * and signature (spec §5.3: a nonce is replay protection, not an idempotency key). Redirects are refused.
 */
import { canonicalString, unixTimestamp, type Signer } from "@org/webinar-signing";
import type { OperationId } from "@org/webinar-types";
import type { ClockSkew } from "./clock-skew";
import { readEnvelope, type Envelope } from "./envelope";
import { WebinarConnectionError, WebinarTimeoutError, type WebinarError } from "./errors";
import { BodyRecordingRequest, exactBody, recordedBody } from "./exact-body";
import { emitLog, type RequestLogEntry, type RequestLogError, type RequestLogger } from "./request-log";
import { retryAfterMs } from "./retry-after";
import { backoffDelayMs, isRetryableAnswer, type RetryPolicy } from "./retry-policy";

/** A `fetch` implementation: called as `fetch(url, init)`, like the global one. */
export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

/** Waits `ms` milliseconds; rejects with `signal.reason` when the signal aborts first. */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

/** What a client shares between its calls. */
export interface SigningTransport {
  apiKey: string;
  signer: Signer;
  fetch: FetchLike;
  /** Epoch milliseconds. */
  clock: () => number;
  /** Returns a fresh, valid `X-Nonce` on every call. */
  nonceSource: () => string;
  sleep: Sleep;
  random: () => number;
  logger: RequestLogger | undefined;
  /** `undefined` when clock-skew correction is off. */
  skew: ClockSkew | undefined;
}

/** The final answer of a call, read once, for the client's methods. */
export interface FinalAnswer {
  status: number;
  headers: Headers;
  body: string;
  envelope: Envelope;
  attempts: number;
}

/** Settings of one call. */
export interface CallSettings {
  retry: RetryPolicy;
  /** Limit of each attempt, from sending to the end of the answer. */
  timeoutMs: number;
  operationId?: OperationId | undefined;
  /**
   * When set, the final answer's body is read here and the returned `Response` has none, so nothing reads or
   * parses it twice. Without it (`client.raw`), the returned `Response` carries the body.
   */
  onAnswer?: ((answer: FinalAnswer) => void) | undefined;
}

type AttemptResult = { ok: true; response: Response; body: string | undefined } | { ok: false; error: WebinarConnectionError | WebinarTimeoutError };

const NULL_BODY_STATUSES: ReadonlySet<number> = new Set([204, 205, 304]);

function messageOf(value: unknown): string {
  return value instanceof Error ? value.message : "";
}

function connectionError(error: unknown, attempt: number): WebinarConnectionError {
  const cause = (error as { cause?: unknown } | undefined)?.cause;
  // undici reports a refused redirect as "fetch failed" caused by "unexpected redirect"; other fetches say "redirect".
  if (/redirect/i.test(`${messageOf(error)} ${messageOf(cause)}`)) {
    return new WebinarConnectionError("the server answered with a redirect, which a signed request never follows (spec §5.1)", { reason: "redirect", cause: error, attempts: attempt });
  }
  const detail = messageOf(cause) || messageOf(error) || String(error);
  return new WebinarConnectionError(`could not reach the server: ${detail}`, { reason: "network", cause: error, attempts: attempt });
}

/** The URL and the path to sign of the few URLs a client calls, parsed once each. */
const targets = new Map<string, { href: string; path: string }>();
const TARGETS_KEPT = 64;

function requestTarget(requestUrl: string): { href: string; path: string } {
  let target = targets.get(requestUrl);
  if (target === undefined) {
    const url = new URL(requestUrl);
    if (url.search !== "" || url.hash !== "") {
      throw new TypeError(`the request URL must have no query string or fragment (spec §4), got ${url.search}${url.hash}`);
    }
    // A client calls four paths under one base URL; the bound only matters to `client.raw` callers inventing paths.
    if (targets.size >= TARGETS_KEPT) targets.clear();
    target = { href: url.href, path: url.pathname };
    targets.set(requestUrl, target);
  }
  return target;
}

function headerRecord(headers: Headers): Record<string, string> {
  const record: Record<string, string> = {};
  headers.forEach((value, name) => {
    record[name] = value;
  });
  return record;
}

/**
 * Sends one attempt and, when `wantBody` asks for it (or the answer is not ok), reads the whole answer, all within
 * `limit.ms`. The limit is enforced by settling the attempt from the timer as well as by aborting the signal, so a
 * `fetch` that ignores signals still times out. One promise per attempt, settled by whichever comes first: the
 * answer, a failure, the timer or the caller's abort (no `Promise.race`, no listener on the attempt's own signal).
 * `callerSignal` is `undefined` when nothing can abort the call.
 */
function attemptOnce(
  fetchImpl: FetchLike,
  url: string,
  init: RequestInit,
  callerSignal: AbortSignal | undefined,
  limit: { ms: number; phase: "attempt" | "deadline" },
  attempt: number,
  wantBody: boolean,
): Promise<AttemptResult> {
  callerSignal?.throwIfAborted();
  return new Promise<AttemptResult>((resolve, reject) => {
    const controller = new AbortController();
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
      else resolve({ ok: false, error: connectionError(error, attempt) });
    };
    const succeed = (response: Response, body: string | undefined): void => {
      if (stop()) resolve({ ok: true, response, body });
    };
    const timer = setTimeout(() => {
      const what = limit.phase === "attempt" ? `the attempt timed out after ${limit.ms} ms` : "the call's overall deadline ran out";
      const error = new WebinarTimeoutError(what, { phase: limit.phase, timeoutMs: limit.ms, attempts: attempt });
      fail(error);
      controller.abort(error);
    }, limit.ms);
    const forwardAbort = (): void => {
      fail(callerSignal?.reason);
      controller.abort(callerSignal?.reason);
    };
    callerSignal?.addEventListener("abort", forwardAbort, { once: true });
    const onResponse = (response: Response): void => {
      if (settled) return;
      let text: Promise<string>;
      try {
        if (!(wantBody || !response.ok)) {
          succeed(response, undefined);
          return;
        }
        text = Promise.resolve(response.text());
      } catch (error) {
        fail(error);
        return;
      }
      text.then((body) => succeed(response, body), fail);
    };
    init.signal = controller.signal;
    try {
      Promise.resolve(fetchImpl(url, init)).then(onResponse, fail);
    } catch (error) {
      fail(error);
    }
  });
}

/** What a log entry says of an attempt's outcome; the rest of the entry is the same for every outcome. */
type AttemptOutcome = Pick<RequestLogEntry, "status" | "requestId" | "error" | "retryInMs">;

function answerLogError(status: number, envelope: Envelope | undefined): RequestLogError | undefined {
  if (envelope === undefined) return status >= 200 && status < 300 ? undefined : { name: "WebinarResponseError", message: `HTTP ${status}` };
  if (envelope.kind === "success") return undefined;
  if (envelope.kind === "error") return { name: "WebinarApiError", code: envelope.code, message: envelope.message };
  return { name: "WebinarResponseError", message: `HTTP ${status}: ${envelope.problem}` };
}

function failureLogError(error: WebinarError): RequestLogError {
  return { name: error.name, message: error.message };
}

/**
 * One call as the signing fetch sends it: what it reads from openapi-fetch's `Request`, or what a typed method
 * hands over directly (client.ts), without building a `Request` at all.
 */
export interface OutgoingCall {
  /** The absolute URL; its path is the path signed. */
  url: string;
  /** The caller's headers, lowercase names; the signing headers are added after them. Owned by the call. */
  headers: Record<string, string>;
  /** The exact body: a string is sent and hashed as its UTF-8 bytes. */
  body: string | Uint8Array<ArrayBuffer>;
  /** The signal that aborts the call, waits included; `undefined` when nothing can abort it. */
  signal: AbortSignal | undefined;
}

function outgoingCall(request: Request, body: string | Uint8Array<ArrayBuffer>): OutgoingCall {
  // A request that follows no signal can never be aborted: then there is nothing to watch during an attempt.
  return { url: request.url, headers: headerRecord(request.headers), body, signal: BodyRecordingRequest.signalMayAbort(request) ? request.signal : undefined };
}

/**
 * Creates the `fetch` for openapi-fetch that signs, sends and retries one call; see {@link sendSignedCall}. It
 * signs the request openapi-fetch hands it after every middleware, over the body that request carries.
 */
export function createSignedFetch(transport: SigningTransport, settings: CallSettings): (request: Request) => Promise<Response> {
  return (request) => {
    const recorded = recordedBody(request);
    if (recorded !== undefined) return sendSignedCall(transport, settings, outgoingCall(request, recorded));
    return exactBody(request).then((body) => sendSignedCall(transport, settings, outgoingCall(request, body)));
  };
}

/**
 * Signs, sends and retries one call.
 *
 * Retried: answers whose code has the retry class `backoff` (and gateway 5xx pages without a code), network
 * failures and attempt timeouts, while attempts and the deadline allow; the wait is the answer's `Retry-After`
 * or exponential backoff with full jitter. Once per call, a 401 OPEN_API_UNAUTHORIZED is retried at once when the
 * answer's `Date` shows the request was signed with a clock off by more than the skew threshold.
 */
export async function sendSignedCall(transport: SigningTransport, settings: CallSettings, call: OutgoingCall): Promise<Response> {
  const { apiKey, signer, clock, skew, logger } = transport;
  const { retry } = settings;
  const { href, path } = requestTarget(call.url);
  const { body, signal } = call;
  // node:crypto signs synchronously: no promise per step on the path every request takes.
  const bodyHash = signer.sync === undefined ? await signer.hashBody(body) : signer.sync.hashBody(body);
  // The headers of every attempt, in the order they have always been sent: the call's own, then ours. The three
  // per-attempt values are filled into a copy of this template, which keeps its shape (adding the keys to each
  // copy instead costs more than all the rest of the headers' work together).
  const headerTemplate = call.headers;
  headerTemplate["content-type"] = "application/json";
  headerTemplate["x-api-key"] = apiKey;
  headerTemplate["x-timestamp"] = "";
  headerTemplate["x-nonce"] = "";
  headerTemplate["x-signature"] = "";
  const deadline = clock() + retry.deadlineMs;
  const wantBody = settings.onAnswer !== undefined || logger !== undefined;

  let attempt = 0;
  let countedAttempts = 0;
  let skewRetried = false;
  const plannedDelay = (retryAfter: string | null, serverNowMs: number): number | undefined => {
    const delay = retryAfterMs(retryAfter, serverNowMs) ?? backoffDelayMs(countedAttempts - 1, retry, transport.random);
    return clock() + delay < deadline ? delay : undefined;
  };

  for (;;) {
    attempt += 1;
    countedAttempts += 1;
    const correction = skew?.correctionMs() ?? 0;
    const timestamp = unixTimestamp(() => clock() + correction);
    const nonce = transport.nonceSource();
    const canonical = canonicalString({ apiKey, path, timestamp, nonce, bodyHash });
    const signature = signer.sync === undefined ? await signer.sign(canonical) : signer.sync.sign(canonical);
    const headers: Record<string, string> = { ...headerTemplate };
    headers["x-timestamp"] = timestamp;
    headers["x-nonce"] = nonce;
    headers["x-signature"] = signature;
    const remaining = deadline - clock();
    const limit = remaining < settings.timeoutMs ? { ms: Math.max(remaining, 0), phase: "deadline" as const } : { ms: settings.timeoutMs, phase: "attempt" as const };
    const started = performance.now();
    const result = await attemptOnce(transport.fetch, href, { method: "POST", headers, body, redirect: "error" }, signal, limit, attempt, wantBody);
    const durationMs = performance.now() - started;
    // Entries are built only for a logger: with none, `log?.(...)` skips building its argument too.
    const log =
      logger === undefined
        ? undefined
        : (outcome: AttemptOutcome): void => emitLog(logger, { method: "POST", path, operationId: settings.operationId, attempt, durationMs, ...outcome });

    if (!result.ok) {
      const { error } = result;
      const retryable = error instanceof WebinarTimeoutError ? error.phase === "attempt" : error.reason === "network";
      const retryInMs = retryable && countedAttempts < retry.maxAttempts ? plannedDelay(null, clock()) : undefined;
      log?.({ status: undefined, requestId: undefined, error: failureLogError(error), ...(retryInMs === undefined ? {} : { retryInMs }) });
      if (retryInMs === undefined) throw error;
      await transport.sleep(retryInMs, signal);
      continue;
    }

    const { response } = result;
    const { status } = response;
    const dateHeader = response.headers.get("date");
    skew?.learn(dateHeader, clock());
    if (status >= 300 && status < 400) {
      // Only a fetch that ignores `redirect: "error"` gets here; refuse the redirect all the same.
      const error = connectionError(new Error("unexpected redirect"), attempt);
      log?.({ status, requestId: undefined, error: failureLogError(error) });
      throw error;
    }
    const envelope = result.body === undefined ? undefined : readEnvelope(status, result.body);
    const code = envelope?.kind === "error" ? envelope.code : undefined;
    let retryInMs: number | undefined;
    if (!response.ok) {
      if (status === 401 && code === "OPEN_API_UNAUTHORIZED" && !skewRetried && skew?.wasSkewed(correction) === true) {
        // Signed with a clock the server's Date shows to be off: once, re-sign with the corrected clock.
        skewRetried = true;
        countedAttempts -= 1;
        retryInMs = 0;
      } else if (countedAttempts < retry.maxAttempts && isRetryableAnswer(status, code)) {
        const serverNow = dateHeader === null ? Number.NaN : Date.parse(dateHeader);
        retryInMs = plannedDelay(response.headers.get("retry-after"), Number.isNaN(serverNow) ? clock() + (skew?.offsetMs ?? 0) : serverNow);
      }
    }
    if (log !== undefined) {
      const error = answerLogError(status, envelope);
      log({ status, requestId: envelope?.requestId, ...(error === undefined ? {} : { error }), ...(retryInMs === undefined ? {} : { retryInMs }) });
    }
    if (retryInMs === undefined) return finish(settings, response, result.body, envelope, attempt);
    if (retryInMs > 0) await transport.sleep(retryInMs, signal);
  }
}

function finish(settings: CallSettings, response: Response, body: string | undefined, envelope: Envelope | undefined, attempts: number): Response {
  const init = { status: response.status, statusText: response.statusText, headers: response.headers };
  if (settings.onAnswer !== undefined && body !== undefined && envelope !== undefined) {
    settings.onAnswer({ status: response.status, headers: response.headers, body, envelope, attempts });
    // openapi-fetch leaves a 2xx body alone with parseAs "stream" (the methods use it), but reads an error body.
    return response.ok ? response : new Response(null, init);
  }
  if (body === undefined) return response;
  return new Response(NULL_BODY_STATUSES.has(response.status) ? null : body, init);
}
