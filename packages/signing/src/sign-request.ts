import { bodyHash as hashBody, type RawBody } from "./body-hash";
import { canonicalString } from "./canonical";
import { createNonce, isValidNonce } from "./nonce";
import { sign } from "./sign";
import { isUnixSeconds, unixTimestamp } from "./timestamp";

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
  /** `X-Nonce` override; defaults to {@link createNonce}. Never reuse one. */
  nonce?: string;
}

/** The five headers of the "Signing requests" guide, exactly as they must be sent. */
export interface SignedHeaders {
  "Content-Type": "application/json";
  "X-API-Key": string;
  "X-Timestamp": string;
  "X-Nonce": string;
  "X-Signature": string;
}

/** The result of {@link signRequest}: headers to send, plus the intermediate values for logging and debugging. */
export interface SignedRequest {
  headers: SignedHeaders;
  /** The string that was signed. It holds no secret, but it does hold the API key. */
  canonical: string;
  /** Lowercase hex SHA-256 of the body. */
  bodyHash: string;
}

// The signed path is the path as sent: no scheme or host, no query, no trailing slash (every operation's path is exact).
function checkPath(path: string): void {
  if (typeof path !== "string" || !path.startsWith("/")) {
    throw new TypeError(
      `signRequest: path must start with "/" (sign the path, not the full URL), got ${JSON.stringify(path)}`,
    );
  }
  if (/[?#\s]/.test(path)) {
    throw new TypeError(
      `signRequest: path must have no query, fragment or whitespace (operation paths have none), got ${JSON.stringify(path)}`,
    );
  }
  if (path.length > 1 && path.endsWith("/")) {
    throw new TypeError(
      `signRequest: path must not end with "/" (operation paths do not), got ${JSON.stringify(path)}`,
    );
  }
}

/**
 * Signs one request in a single call: hashes the exact body, builds the canonical string and returns the headers
 * to send with that same body. Call it for every attempt, retries included; each call takes a new
 * timestamp and nonce.
 *
 * @example
 * const body = JSON.stringify({ uid: 10001, ticketCode: "WBN8K2QX" }); // serialize once
 * const { headers } = await signRequest({ apiKey, secret, path: "/api/v1/open/viewers/login-tickets", body });
 * await fetch(`${baseUrl}/api/v1/open/viewers/login-tickets`, { method: "POST", headers, body, redirect: "error" });
 */
export async function signRequest(input: SignRequestInput): Promise<SignedRequest> {
  const { apiKey, secret, path, body } = input;
  if (typeof apiKey !== "string" || apiKey.length === 0)
    throw new TypeError("signRequest: apiKey must be a non-empty string");
  checkPath(path);
  const timestamp = input.timestamp ?? unixTimestamp();
  if (!isUnixSeconds(timestamp)) {
    throw new RangeError(
      `signRequest: timestamp must be Unix seconds as a decimal string, not milliseconds, got ${JSON.stringify(timestamp)}`,
    );
  }
  const nonce = input.nonce ?? createNonce();
  if (!isValidNonce(nonce)) {
    throw new RangeError(
      `signRequest: nonce must be 16-128 characters of A-Z a-z 0-9 _ -, got ${JSON.stringify(nonce)}`,
    );
  }
  const hash = await hashBody(body);
  const canonical = canonicalString({ apiKey, method: "POST", path, timestamp, nonce, bodyHash: hash });
  const signature = await sign(secret, canonical);
  return {
    headers: {
      "Content-Type": "application/json",
      "X-API-Key": apiKey,
      "X-Timestamp": timestamp,
      "X-Nonce": nonce,
      "X-Signature": signature,
    },
    canonical,
    bodyHash: hash,
  };
}
