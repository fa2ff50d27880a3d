/**
 * The client's failures. Callers branch on `error.code` (the "Errors and retries" guide), so every answer in the API's
 * error envelope is ONE class, `WebinarApiError`, whatever its status: 409 alone means four different things here.
 * Failures that never produced such an answer get their own classes: no connection, no answer in time, or an answer
 * that is not the API's JSON (a gateway's HTML 413 or 502 page, a truncated body).
 */
import type { OperationErrorCode, OperationId } from "@org/webinar-types";

/** Base class of every error this client throws; `instanceof WebinarError` catches them all. */
export class WebinarError extends Error {
  /** How many HTTP attempts were made before giving up (retries and the clock-skew correction included). */
  readonly attempts: number;

  constructor(message: string, options: { attempts?: number; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.attempts = options.attempts ?? 1;
  }
}

/** What the API said, as read from its error envelope (`ErrorEnvelope`). */
export interface ApiErrorInit<Op extends OperationId> {
  operationId: Op;
  status: number;
  code: OperationErrorCode<Op>;
  message: string;
  requestId: string;
  details?: Record<string, unknown> | undefined;
  headers: Headers;
  attempts?: number;
}

/**
 * The API answered with its error envelope (`ErrorEnvelope`, the "Errors and retries" guide). `code` is typed per
 * operation from the spec's `x-error-codes`: after `isWebinarApiError(error, "upsertViewer")`, `error.code` is one of
 * the codes upsert can return. A code the spec does not list yet (a newer server) is passed through unchanged.
 *
 * @example
 * try {
 *   await client.upsertViewer({ externalUserId: "crm-10086", phone: "13800138000" });
 * } catch (error) {
 *   if (isWebinarApiError(error, "upsertViewer") && error.code === "VIEWER_IDENTITY_CONFLICT") {
 *     // the phone belongs to another viewer of your merchant: nothing was changed
 *   }
 *   throw error;
 * }
 */
export class WebinarApiError<Op extends OperationId = OperationId> extends WebinarError {
  /** The operation that failed. */
  readonly operationId: Op;
  /** HTTP status of the answer. */
  readonly status: number;
  /** `error.code`: branch on this, never on `message` or `status` alone. */
  readonly code: OperationErrorCode<Op>;
  /** `requestId` of the answer: quote it when contacting the operator. */
  readonly requestId: string;
  /** `error.details` when present, e.g. `errors` (offending fields) or `matches` of `CONTENT_SENSITIVE`. */
  readonly details: Record<string, unknown> | undefined;
  /** Response headers (non-enumerable, so logging the error stays short). */
  declare readonly headers: Headers;

  constructor(init: ApiErrorInit<Op>) {
    // `message` is the server's human text, verbatim (`ErrorEnvelope`); the code and requestId are own properties.
    super(init.message, { attempts: init.attempts ?? 1 });
    this.operationId = init.operationId;
    this.status = init.status;
    this.code = init.code;
    this.requestId = init.requestId;
    this.details = init.details;
    Object.defineProperty(this, "headers", { value: init.headers, enumerable: false });
  }
}

/** Why no HTTP answer was received. */
export type ConnectionFailure = "network" | "redirect";

/**
 * No usable HTTP answer: DNS, TCP or TLS failure, a reset connection, or (`reason: "redirect"`) a 3xx answer,
 * which a signed request must never follow (a redirected request no longer matches its signature).
 * A network failure does not mean the operation was not executed ("Signing requests").
 */
export class WebinarConnectionError extends WebinarError {
  /** `network`, or `redirect` when the server answered with a redirect that was refused. */
  readonly reason: ConnectionFailure;

  constructor(message: string, options: { reason: ConnectionFailure; cause?: unknown; attempts?: number }) {
    super(message, options);
    this.reason = options.reason;
  }
}

/** Which time limit ran out. */
export type TimeoutPhase = "attempt" | "deadline" | "poll";

/**
 * A time limit ran out: one attempt's `timeoutMs` (`phase: "attempt"`), the overall retry deadline
 * (`"deadline"`), or a wait for final data (`"poll"`). Like a network failure, an attempt that timed out may
 * still have been executed by the server.
 */
export class WebinarTimeoutError extends WebinarError {
  readonly phase: TimeoutPhase;
  /** The limit that ran out, in milliseconds. */
  readonly timeoutMs: number;

  constructor(
    message: string,
    options: { phase: TimeoutPhase; timeoutMs: number; attempts?: number; cause?: unknown },
  ) {
    super(message, options);
    this.phase = options.phase;
    this.timeoutMs = options.timeoutMs;
  }
}

/**
 * An HTTP answer that is not the API's JSON envelope: a proxy's HTML 413 or 502 page, an empty or truncated body,
 * JSON of another shape. `bodySnippet` holds the start of the body for diagnosis.
 */
export class WebinarResponseError extends WebinarError {
  readonly status: number;
  /** At most the first 512 characters of the body. */
  readonly bodySnippet: string;
  /** `requestId` when the body carried one, which a malformed answer usually does not. */
  readonly requestId: string | undefined;
  /** Response headers (non-enumerable). */
  declare readonly headers: Headers;

  constructor(
    message: string,
    init: { status: number; body: string; headers: Headers; requestId?: string | undefined; attempts?: number },
  ) {
    super(message, { attempts: init.attempts ?? 1 });
    this.status = init.status;
    this.bodySnippet = init.body.slice(0, 512);
    this.requestId = init.requestId;
    Object.defineProperty(this, "headers", { value: init.headers, enumerable: false });
  }
}

/**
 * Narrows an unknown error to a `WebinarApiError`, optionally of one operation, so that `error.code` is that
 * operation's union of codes.
 *
 * @example
 * if (isWebinarApiError(error, "queryViewerWatch") && error.code === "WATCH_DATA_NOT_FINAL") {
 *   // poll later
 * }
 */
export function isWebinarApiError<Op extends OperationId = OperationId>(
  error: unknown,
  operationId?: Op,
): error is WebinarApiError<Op> {
  return error instanceof WebinarApiError && (operationId === undefined || error.operationId === operationId);
}
