/**
 * Synchronous signing and verification with node:crypto, for servers: an HMAC here takes microseconds and no
 * promise. It is a separate entry point (`@org/webinar-signing/node`) so the main entry stays free of Node APIs
 * for browsers, Deno, Bun and Workers. Both paths agree on every vector of spec/test-vectors/signing.json.
 */
import * as nodeCrypto from "node:crypto";
import { nodeBodyHash } from "./body-hash";
import type { NodeCrypto } from "./crypto-backend";
import { preparedNodeHmac } from "./node-hmac";
import { assertUsableSecret } from "./secret";
import { constantTimeEqual, SIGNATURE_LENGTH } from "./signature-format";

// Spelled out rather than imported, so the declarations of this entry stand alone (no shared .d.ts chunk).
type RawBody = Uint8Array | ArrayBuffer | string;

const builtin: NodeCrypto = nodeCrypto;

/**
 * Lowercase hex SHA-256 of the raw body (spec §5.2 step 2); strings are hashed as UTF-8.
 *
 * @example
 * bodyHashSync(rawBodyBuffer); // "93f367d8b3cb5ad87aed00c876dbefa425b1963b0dc7adca50cda75cfb082518"
 */
export function bodyHashSync(body: RawBody): string {
  return nodeBodyHash(builtin, body);
}

/**
 * Lowercase hex HMAC-SHA256 of the canonical string with the UTF-8 bytes of the secret (spec §5.2 step 4). The
 * key of each recent secret is prepared once (node-hmac.ts).
 *
 * @example
 * signSync(secret, canonicalString({ apiKey, path, timestamp, nonce, bodyHash: bodyHashSync(rawBody) }));
 */
export function signSync(secret: string, canonical: string): string {
  assertUsableSecret(secret);
  return preparedNodeHmac(builtin, secret)(canonical);
}

/**
 * Whether `signature` is the signature of `canonical` under `secret`. Only 64 lowercase hex characters are
 * accepted (spec §5.1): the received value is compared in constant time with the expected lowercase hex, which
 * nothing else equals. A value of another length is refused before any HMAC (its length is no secret).
 *
 * @example
 * if (!verifySync(secret, canonical, signatureHeader)) {
 *   // 401 OPEN_API_UNAUTHORIZED
 * }
 */
export function verifySync(secret: string, canonical: string, signature: string): boolean {
  assertUsableSecret(secret);
  if (typeof signature !== "string" || signature.length !== SIGNATURE_LENGTH) return false;
  return constantTimeEqual(preparedNodeHmac(builtin, secret)(canonical), signature);
}
