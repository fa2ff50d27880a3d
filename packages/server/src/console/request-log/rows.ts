/**
 * One row of the request log, made from the server's one observation of an Open API request (http/
 * request-observation.ts) and what the validator's middleware left on the context: the verified request, or its
 * refusal with the canonical string of a signature mismatch. Only facts, never the body or a secret.
 */
import type { Context } from "hono";
import type { RequestVerifier } from "@org/webinar-validator";
import type { AppEnv } from "../../http/app-env";
import type { RequestObservation } from "../../http/request-observation";
import { maskPhoneNumbers } from "./mask";

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
  /** Whether the signature verified (the key's `lastUsedAt` counts these). */
  verified: boolean;
}

/** The longest API key kept; a longer header value names no key of any merchant. */
const MAX_API_KEY_LENGTH = 128;

/** The row of an Open API request, or undefined for one without an API key (it belongs to no merchant). */
export function requestLogRow(
  observation: RequestObservation,
  c: Context<AppEnv>,
  verifier: Pick<RequestVerifier, "matchPath">,
): RequestLogRow | undefined {
  const verified = c.get("webinar") as AppEnv["Variables"]["webinar"] | undefined;
  const rejection = c.get("webinarRejection");
  const apiKey = verified?.apiKey ?? c.req.header("x-api-key");
  if (apiKey === undefined || apiKey === "" || apiKey.length > MAX_API_KEY_LENGTH) return undefined;
  const match = verifier.matchPath(observation.path);
  const operationId = observation.operationId ?? ("operationId" in match ? match.operationId : undefined);
  return {
    request_id: observation.requestId,
    answered_at: new Date(observation.startedAt + observation.durationMs).toISOString(),
    api_key: apiKey,
    operation_id: operationId ?? null,
    method: observation.method.slice(0, 16),
    path: maskPhoneNumbers(observation.path),
    status: observation.status,
    error_code: observation.errorCode ?? rejection?.body?.error.code ?? null,
    duration_ms: Math.round(observation.durationMs),
    canonical_string: rejection?.canonicalString === undefined ? null : maskPhoneNumbers(rejection.canonicalString),
    verified: verified !== undefined,
  };
}
