/**
 * One entry per HTTP attempt for an optional logger hook. Entries are built from a fixed list of fields, never
 * from the request or the answer as a whole, so the secret, the signature, a login ticket or a login URL (spec
 * `issueLoginTicket`: temporary credentials that must not be logged) cannot reach a log through them.
 */
import type { OperationId } from "@org/webinar-types";

/** What went wrong in an attempt, reduced to what is safe to log. */
export interface RequestLogError {
  /** `WebinarApiError`, `WebinarConnectionError`, `WebinarTimeoutError` or `WebinarResponseError`. */
  name: string;
  /** The API's `error.code`, when it answered with one. */
  code?: string;
  message: string;
}

/** One HTTP attempt, as given to the `logger` hook. */
export interface RequestLogEntry {
  method: "POST";
  /** The path as sent and signed, e.g. `/api/v1/open/viewers/upsert` (with any base-URL prefix). */
  path: string;
  /** The operation called. */
  operationId: OperationId;
  /** HTTP status, or `undefined` when no answer arrived. */
  status: number | undefined;
  /** Time from sending to the end of the answer (or the failure), in milliseconds. */
  durationMs: number;
  /** The answer's `requestId`, when it had one and it was read. */
  requestId: string | undefined;
  /** 1 for the first attempt of a call, 2 for its first retry, ... */
  attempt: number;
  /** Set when the attempt failed. */
  error?: RequestLogError;
  /** Set when another attempt follows: the wait before it, in milliseconds. */
  retryInMs?: number;
}

/** Receives one {@link RequestLogEntry} per attempt. Exceptions it throws are ignored. */
export type RequestLogger = (entry: RequestLogEntry) => void;

/** Calls the logger, so that a failing logger can never fail a request. */
export function emitLog(logger: RequestLogger | undefined, entry: RequestLogEntry): void {
  if (logger === undefined) return;
  try {
    logger(entry);
  } catch {
    // A logger is an observer; its failure must not change the outcome of the call.
  }
}
