/**
 * Signs one Open API request as a merchant's backend does (guide "Signing requests" of spec/openapi.yaml): a fresh
 * nonce and timestamp, the SHA-256 of the exact body bytes, HMAC-SHA256 over the six-line canonical string. node:crypto
 * is used directly, so the load generator's own cost stays the same whichever build of the packages is measured.
 */
import { createHash, createHmac, randomBytes } from "node:crypto";

export interface Credentials {
  apiKey: string;
  secret: string;
}

/** The headers of a signed POST of `body` (already serialized: the same string is sent) to `path`. */
export function signedHeaders(credentials: Credentials, path: string, body: string): Record<string, string> {
  const timestamp = String(Math.floor(Date.now() / 1000));
  const nonce = randomBytes(16).toString("hex");
  const bodyHash = createHash("sha256").update(body).digest("hex");
  const canonical = [credentials.apiKey, "POST", path, timestamp, nonce, bodyHash].join("\n");
  return {
    "content-type": "application/json",
    "x-api-key": credentials.apiKey,
    "x-timestamp": timestamp,
    "x-nonce": nonce,
    "x-signature": createHmac("sha256", credentials.secret).update(canonical).digest("hex"),
  };
}
