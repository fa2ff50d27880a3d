/**
 * The options of the signed-request check, validated once when a verifier is created (a bad limit, origin or base
 * path throws then, not on the first request) and resolved to the values every request uses.
 */
import { limits as specLimits } from "@org/webinar-types";
import { createCorsPolicy, type CorsPolicy } from "./cors";
import { defaultRequestId } from "./error-envelope";
import { positiveInteger } from "./positive-integer";
import { createOperationPathMatcher, type OperationPathMatcher } from "./request-path";
import type { SignedRequestOptions } from "./signed-request-types";

/** What the checks read of the options, with every default applied. */
export interface VerifierSettings {
  lookupKey: SignedRequestOptions["lookupKey"];
  nonceStore: SignedRequestOptions["nonceStore"];
  onError: SignedRequestOptions["onError"];
  now: () => number;
  clockSkewSeconds: number;
  maxBodyBytes: number;
  /** How long a consumed nonce is kept: it must outlive every moment its timestamp is acceptable. */
  nonceRetentionMs: number;
  /** Undefined when no browser origin is allowed. */
  cors: CorsPolicy | undefined;
  createRequestId: () => string;
  basePath: string;
  matchPath: OperationPathMatcher;
}

/** Validates `options` and applies the defaults (limits from the spec's `x-limits`). */
export function resolveVerifierSettings(options: SignedRequestOptions): VerifierSettings {
  if (typeof options.lookupKey !== "function") throw new TypeError("lookupKey must be a function");
  if (typeof options.nonceStore?.consume !== "function")
    throw new TypeError("nonceStore must have a consume(apiKey, nonce, expiresAtMs) method");
  const clockSkewSeconds = positiveInteger(
    options.limits?.clockSkewSeconds ?? specLimits.clockSkewSeconds,
    "limits.clockSkewSeconds",
  );
  const basePath = options.basePath ?? "";
  return {
    lookupKey: options.lookupKey,
    nonceStore: options.nonceStore,
    onError: options.onError,
    now: options.now ?? Date.now,
    clockSkewSeconds,
    maxBodyBytes: positiveInteger(options.limits?.maxBodyBytes ?? specLimits.maxBodyBytes, "limits.maxBodyBytes"),
    // Twice the skew window: a timestamp is acceptable from `skew` before the clock to `skew` after it.
    nonceRetentionMs: 2 * clockSkewSeconds * 1000,
    cors: options.allowedOrigins?.length ? createCorsPolicy(options.allowedOrigins) : undefined,
    createRequestId: options.createRequestId ?? defaultRequestId,
    basePath,
    matchPath: createOperationPathMatcher(basePath),
  };
}
