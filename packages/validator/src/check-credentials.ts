/**
 * The checks of a signed request that prove who sent it, after its form passed (check-request-form.ts): the
 * timestamp within the skew window, the key, the signature over the received path and body bytes (compared in
 * constant time), the merchant's status, then the nonce. The nonce is consumed only after the signature verified,
 * so a forged request cannot burn a client's nonce.
 */
import { canonicalString, createSigner, isUnixSeconds, isWellFormedSignature, type Signer } from "@org/webinar-signing";
import { rejection, type AnswerBasis } from "./rejection";
import type { SignatureHeaders } from "./check-request-form";
import type { VerifierSettings } from "./verifier-settings";
import type { ApiKeyRecord, FailureSource, RequestRejection } from "./signed-request-types";

const SIGNATURE_MISMATCH = "request signature could not be verified";

function unavailable(
  settings: VerifierSettings,
  answer: AnswerBasis,
  error: unknown,
  source: FailureSource,
): RequestRejection {
  settings.onError?.(error, source);
  return rejection(answer, "AUTH_DEPENDENCY_UNAVAILABLE", "authentication is temporarily unavailable");
}

/**
 * The timestamp in seconds, within the skew window in both directions, and a well-formed signature
 * ("Signing requests"). Resolves the clock reading the nonce's retention is counted from.
 */
export function checkTimestamp(
  { timestamp, signature }: SignatureHeaders,
  settings: VerifierSettings,
  answer: AnswerBasis,
): number | RequestRejection {
  if (!isUnixSeconds(timestamp))
    return rejection(
      answer,
      "OPEN_API_UNAUTHORIZED",
      "X-Timestamp must be Unix time in seconds as a decimal string (not milliseconds)",
    );
  const nowMs = settings.now();
  const { clockSkewSeconds } = settings;
  if (Math.abs(Math.floor(nowMs / 1000) - Number(timestamp)) > clockSkewSeconds)
    return rejection(
      answer,
      "OPEN_API_UNAUTHORIZED",
      `X-Timestamp is outside the accepted clock skew of ±${clockSkewSeconds} seconds`,
    );
  if (!isWellFormedSignature(signature))
    return rejection(answer, "OPEN_API_UNAUTHORIZED", "X-Signature must be 64 lowercase hex characters");
  return nowMs;
}

function isSigner(value: Signer | null): boolean {
  return typeof value?.hashBody === "function" && typeof value.verify === "function";
}

function isUsableKey(key: ApiKeyRecord): boolean {
  return (
    typeof key.secret === "string" &&
    key.secret !== "" &&
    (key.signer === undefined || isSigner(key.signer)) &&
    typeof key.merchantId === "string" &&
    (key.status === "ACTIVE" || key.status === "SUSPENDED")
  );
}

/** The active key whose secret signed exactly this path and body; a suspended merchant is 403 once it verified. */
export async function authenticate(
  headers: SignatureHeaders,
  rawPath: string,
  body: Uint8Array,
  settings: VerifierSettings,
  answer: AnswerBasis,
): Promise<ApiKeyRecord | RequestRejection> {
  let key: ApiKeyRecord | undefined;
  try {
    key = await settings.lookupKey(headers.apiKey);
  } catch (error) {
    return unavailable(settings, answer, error, "lookupKey");
  }
  // Unknown key and wrong signature read the same, so the answer does not tell which keys exist.
  if (key === undefined || key === null) return rejection(answer, "OPEN_API_UNAUTHORIZED", SIGNATURE_MISMATCH);
  if (!isUsableKey(key)) {
    const problem = new TypeError(
      "lookupKey returned a record without a secret, merchantId or valid status, or with a signer that is not one of createSigner",
    );
    return unavailable(settings, answer, problem, "lookupKey");
  }
  // A record's own signer was prepared once; otherwise the secret is prepared for this request.
  const signer = key.signer ?? createSigner(key.secret);
  let canonical: string;
  try {
    // The path as received is exactly the operation path (after basePath): the client signs its real path.
    const { apiKey, timestamp, nonce } = headers;
    canonical = canonicalString({
      apiKey,
      method: "POST",
      path: rawPath,
      timestamp,
      nonce,
      bodyHash: await signer.hashBody(body),
    });
  } catch {
    return rejection(answer, "OPEN_API_UNAUTHORIZED", SIGNATURE_MISMATCH);
  }
  if (!(await signer.verify(canonical, headers.signature)))
    return { ...rejection(answer, "OPEN_API_UNAUTHORIZED", SIGNATURE_MISMATCH), canonicalString: canonical };
  if (key.status === "SUSPENDED") return rejection(answer, "TENANT_SUSPENDED", "the merchant is suspended");
  return key;
}

/** OPEN_API_REPLAYED unless this is the nonce's first use; consumed atomically, kept twice the skew window. */
export async function consumeNonce(
  { apiKey, nonce }: SignatureHeaders,
  nowMs: number,
  settings: VerifierSettings,
  answer: AnswerBasis,
): Promise<RequestRejection | undefined> {
  let firstUse: boolean;
  try {
    firstUse = await settings.nonceStore.consume(apiKey, nonce, nowMs + settings.nonceRetentionMs);
  } catch (error) {
    return unavailable(settings, answer, error, "nonceStore");
  }
  if (firstUse === true) return undefined;
  return rejection(
    answer,
    "OPEN_API_REPLAYED",
    "nonce already used: sign every request, including retries, with a new nonce",
  );
}
