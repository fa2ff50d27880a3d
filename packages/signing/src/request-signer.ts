/**
 * Signs the requests of one API key, as the spec's "Signing requests" guide says: the key and secret are checked
 * and the HMAC key prepared once, then each request gets a fresh timestamp and nonce (or checked given ones), the
 * hash of its exact body and its signature. `signRequest` and the client's signing middleware both sign through it.
 */
import type { RawBody } from "./body-hash";
import { canonicalString } from "./canonical";
import type { CryptoBackend, CryptoPreference } from "./crypto-backend";
import { createNonce, isValidNonce } from "./nonce";
import { createSigner } from "./sign";
import { isUnixSeconds, unixTimestamp } from "./timestamp";

/** The five headers of the "Signing requests" guide, exactly as they must be sent. */
export interface SignedHeaders {
  "Content-Type": "application/json";
  "X-API-Key": string;
  "X-Timestamp": string;
  "X-Nonce": string;
  "X-Signature": string;
}

/** One signed request: headers to send, plus the intermediate values for logging and debugging. */
export interface SignedRequest {
  headers: SignedHeaders;
  /** The string that was signed. It holds no secret, but it does hold the API key. */
  canonical: string;
  /** Lowercase hex SHA-256 of the body. */
  bodyHash: string;
}

/** The credentials of a {@link RequestSigner}. */
export interface RequestSignerOptions {
  /** The `X-API-Key` value. */
  apiKey: string;
  /** The secret paired with the API key, as raw text. */
  secret: string;
  /** Hash implementation: `auto` (default; node:crypto when the runtime has it), `node` or `web` (Web Crypto). */
  crypto?: CryptoPreference;
  /**
   * Makes each `X-Nonce` a request does not bring (default `createNonce`: 16 CSPRNG bytes as 32 hex characters).
   * For tests reproducing a vector; a nonce must never repeat.
   */
  nonceSource?: (() => string) | undefined;
}

/** What one request contributes to its signature; `timestamp` and `nonce` are generated when omitted. */
export interface RequestToSign {
  /** The real request path as sent, including any path prefix of the base URL, e.g. `/api/v1/open/viewers/upsert`. */
  path: string;
  /** The exact body that will be sent: its bytes, or the string whose UTF-8 encoding is sent. */
  body: RawBody;
  /** `X-Timestamp` override (Unix seconds); defaults to now. */
  timestamp?: string | undefined;
  /** `X-Nonce` override; defaults to one from the signer's `nonceSource`. Never reuse one. */
  nonce?: string | undefined;
}

/** Signs requests with one key; see {@link createRequestSigner}. */
export interface RequestSigner {
  /** The implementation in use. */
  readonly backend: CryptoBackend;
  /** Signs one request; call it for every attempt, retries included. */
  sign(request: RequestToSign): Promise<SignedRequest>;
}

// The signed path is the path as sent: no scheme or host, no query, no trailing slash (every operation's path is
// exact).
function checkPath(path: string): void {
  if (typeof path !== "string" || !path.startsWith("/")) {
    throw new TypeError(`path must start with "/" (sign the path, not the full URL), got ${JSON.stringify(path)}`);
  }
  if (/[?#\s]/.test(path)) {
    throw new TypeError(
      `path must have no query, fragment or whitespace (operation paths have none), got ${JSON.stringify(path)}`,
    );
  }
  if (path.length > 1 && path.endsWith("/")) {
    throw new TypeError(`path must not end with "/" (operation paths do not), got ${JSON.stringify(path)}`);
  }
}

function checkedTimestamp(timestamp: string): string {
  if (!isUnixSeconds(timestamp)) {
    throw new RangeError(
      `timestamp must be Unix seconds as a decimal string, not milliseconds, got ${JSON.stringify(timestamp)}`,
    );
  }
  return timestamp;
}

function checkedNonce(nonce: string, origin: "nonce" | "nonceSource"): string {
  if (!isValidNonce(nonce)) {
    const what = origin === "nonce" ? "nonce must be" : "nonceSource must return";
    throw new RangeError(
      `${what} 16-128 characters of A-Z a-z 0-9 _ - (the X-Nonce rule), got ${JSON.stringify(nonce)}`,
    );
  }
  return nonce;
}

/**
 * Checks the credentials and prepares the HMAC key once, for signing many requests of one key.
 *
 * @example
 * const apiKey = process.env.WEBINAR_API_KEY!;
 * const signer = createRequestSigner({ apiKey, secret: process.env.WEBINAR_API_SECRET! });
 * const body = JSON.stringify({ externalUserId: "crm-10086" }); // serialize once
 * const { headers } = await signer.sign({ path: "/api/v1/open/viewers/upsert", body });
 */
export function createRequestSigner({ apiKey, secret, crypto, nonceSource }: RequestSignerOptions): RequestSigner {
  if (typeof apiKey !== "string" || apiKey.length === 0 || /[\r\n]/.test(apiKey)) {
    throw new TypeError(
      "apiKey must be a non-empty string without line breaks (the X-API-Key from the merchant console)",
    );
  }
  const signer = createSigner(secret, crypto);
  return {
    backend: signer.backend,
    async sign(request) {
      checkPath(request.path);
      const timestamp = checkedTimestamp(request.timestamp ?? unixTimestamp());
      const nonce =
        request.nonce !== undefined
          ? checkedNonce(request.nonce, "nonce")
          : nonceSource === undefined
            ? createNonce()
            : checkedNonce(nonceSource(), "nonceSource");
      const bodyHash = await signer.hashBody(request.body);
      const canonical = canonicalString({ apiKey, method: "POST", path: request.path, timestamp, nonce, bodyHash });
      const headers: SignedHeaders = {
        "Content-Type": "application/json",
        "X-API-Key": apiKey,
        "X-Timestamp": timestamp,
        "X-Nonce": nonce,
        "X-Signature": await signer.sign(canonical),
      };
      return { headers, canonical, bodyHash };
    },
  };
}
