/**
 * One entry of the request log, made from the server's one observation of an Open API request (http/
 * request-observation.ts) and what the validator's middleware left on the context: the verified request, or its
 * refusal with the canonical string of a signature mismatch. Only facts, never the body or a secret.
 *
 * Taking an entry is all the request path pays: it copies the facts as they are. Everything done per row besides
 * (the operation of a path that matched none, phone masking, the timestamp's text) waits for the batch that writes
 * it (`storedRow`), off the request path.
 */
import type { Context } from "hono";
import type { RequestVerifier } from "@org/webinar-validator";
import type { AppEnv } from "../../http/app-env";
import { requestHeader } from "../../http/request-header";
import type { RequestObservation } from "../../http/request-observation";
import { maskPhoneNumbers } from "./mask";

/** An answered Open API request as the request path hands it over. */
export interface RequestLogEntry {
  requestId: string;
  answeredAtMs: number;
  apiKey: string;
  operationId: string | undefined;
  method: string;
  path: string;
  status: number;
  errorCode: string | undefined;
  durationMs: number;
  canonicalString: string | undefined;
  /** Whether the signature checked out (the key's `lastUsedAt` counts these; retention caps the classes apart). */
  verified: boolean;
}

/** The row as written, every field in the table's form. */
export interface RequestLogRow {
  request_id: string;
  answered_at: string;
  api_key: string;
  operation_id: string | null;
  method: string;
  path: string;
  status: number;
  error_code: string | null;
  duration_ms: number;
  canonical_string: string | null;
  verified: boolean;
}

/**
 * The refusals that come after the signature checked out (verifySignedRequest of @org/webinar-validator checks the
 * timestamp, key and signature, then the merchant's status, then the nonce): such a request counts as verified.
 */
const REFUSED_AFTER_SIGNATURE: ReadonlySet<string> = new Set(["TENANT_SUSPENDED", "OPEN_API_REPLAYED"]);

/** The longest API key kept; a longer header value names no key of any merchant. */
const MAX_API_KEY_LENGTH = 128;

/** The entry of an Open API request, or undefined for one without an API key (it belongs to no merchant). */
export function requestLogEntry(observation: RequestObservation, c: Context<AppEnv>): RequestLogEntry | undefined {
  const verified = c.get("webinar") as AppEnv["Variables"]["webinar"] | undefined;
  const rejection = c.get("webinarRejection");
  const apiKey = verified?.apiKey ?? requestHeader(c, "x-api-key");
  if (apiKey === undefined || apiKey === "" || apiKey.length > MAX_API_KEY_LENGTH) return undefined;
  const errorCode = observation.errorCode ?? rejection?.body?.error.code;
  return {
    requestId: observation.requestId,
    answeredAtMs: observation.startedAt + observation.durationMs,
    apiKey,
    operationId: observation.operationId,
    method: observation.method,
    path: observation.path,
    status: observation.status,
    errorCode,
    durationMs: observation.durationMs,
    canonicalString: rejection?.canonicalString,
    verified: verified !== undefined || (errorCode !== undefined && REFUSED_AFTER_SIGNATURE.has(errorCode)),
  };
}

/** The row written for an entry: its operation found by its path when the request named none, phones masked. */
export function storedRow(entry: RequestLogEntry, verifier: Pick<RequestVerifier, "matchPath">): RequestLogRow {
  let operationId = entry.operationId;
  if (operationId === undefined) {
    const match = verifier.matchPath(entry.path);
    if ("operationId" in match) operationId = match.operationId;
  }
  return {
    request_id: entry.requestId,
    answered_at: new Date(entry.answeredAtMs).toISOString(),
    api_key: entry.apiKey,
    operation_id: operationId ?? null,
    method: entry.method.slice(0, 16),
    path: maskPhoneNumbers(entry.path),
    status: entry.status,
    error_code: entry.errorCode ?? null,
    duration_ms: Math.round(entry.durationMs),
    canonical_string: entry.canonicalString === undefined ? null : maskPhoneNumbers(entry.canonicalString),
    verified: entry.verified,
  };
}
