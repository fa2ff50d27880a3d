import type { RawBody } from "./body-hash";
import { createRequestSigner, type SignedRequest } from "./request-signer";

/** What {@link signRequest} needs; `timestamp` and `nonce` are generated when omitted. */
export interface SignRequestInput {
  /** The `X-API-Key` value. */
  apiKey: string;
  /** The secret paired with the API key, as raw text. */
  secret: string;
  /** The real request path as sent, including any path prefix of the base URL, e.g. `/api/v1/open/viewers/upsert`. */
  path: string;
  /** The exact body that will be sent: its bytes, or the string whose UTF-8 encoding is sent. */
  body: RawBody;
  /** `X-Timestamp` override (Unix seconds); defaults to now. */
  timestamp?: string;
  /** `X-Nonce` override; defaults to `createNonce()`. Never reuse one. */
  nonce?: string;
}

/**
 * Signs one request in a single call: hashes the exact body, builds the canonical string and returns the headers
 * to send with that same body. Call it for every attempt, retries included; each call takes a new timestamp and
 * nonce. To sign many requests of one key, `createRequestSigner` checks the key and prepares it once.
 *
 * @example
 * const body = JSON.stringify({ uid: 10001, ticketCode: "WBN8K2QX" }); // serialize once
 * const { headers } = await signRequest({ apiKey, secret, path: "/api/v1/open/viewers/login-tickets", body });
 * await fetch(`${baseUrl}/api/v1/open/viewers/login-tickets`, { method: "POST", headers, body, redirect: "error" });
 */
export async function signRequest(input: SignRequestInput): Promise<SignedRequest> {
  return createRequestSigner(input).sign(input);
}
