/**
 * Synchronous signing and verification with node:crypto, for servers: an HMAC here takes microseconds and no
 * promise. It is a separate entry point (`@org/webinar-signing/node`) so the main entry stays free of Node APIs
 * for browsers, Deno, Bun and Workers. Both paths agree on every vector of spec/test-vectors/signing.json.
 */
import * as nodeCrypto from "node:crypto";
import { createKeyCache } from "./key-cache";
import { assertUsableSecret } from "./secret";
import { constantTimeEqual, isWellFormedSignature } from "./signature-format";

// Spelled out rather than imported, so the declarations of this entry stand alone (no shared .d.ts chunk).
type RawBody = Uint8Array | ArrayBuffer | string;

function toBytes(body: RawBody): Uint8Array | string {
  return body instanceof ArrayBuffer ? new Uint8Array(body) : body;
}

/**
 * Lowercase hex SHA-256 of the raw body (spec §5.2 step 2); strings are hashed as UTF-8.
 *
 * @example
 * bodyHashSync(rawBodyBuffer); // "93f367d8b3cb5ad87aed00c876dbefa425b1963b0dc7adca50cda75cfb082518"
 */
export function bodyHashSync(body: RawBody): string {
  // crypto.hash (Node 20.12+) is a one-shot digest without a Hash object: a third of the time on a hot path.
  const { hash } = nodeCrypto as { hash?: (algorithm: string, data: Uint8Array | string, encoding: "hex") => string };
  const data = toBytes(body);
  return hash === undefined ? nodeCrypto.createHash("sha256").update(data).digest("hex") : hash("sha256", data, "hex");
}

/** Most secrets whose key objects are kept; a server verifies with a handful of keys, a client signs with one. */
const NODE_KEY_CACHE_LIMIT = 64;

/**
 * Key objects by secret, each made once: `createHmac` with a ready key skips converting the secret on every call,
 * a tenth of the cost of an HMAC. The secret is raw text, its UTF-8 bytes are the key, never hex- or
 * Base64-decoded (spec §5.2 step 4).
 */
const keyObjects = createKeyCache<nodeCrypto.KeyObject>(NODE_KEY_CACHE_LIMIT);
const makeKeyObject = (secret: string) => nodeCrypto.createSecretKey(Buffer.from(secret, "utf8"));

function hmacHex(secret: string, canonical: string): string {
  return nodeCrypto.createHmac("sha256", keyObjects.get(secret, makeKeyObject)).update(canonical, "utf8").digest("hex");
}

/**
 * Lowercase hex HMAC-SHA256 of the canonical string with the UTF-8 bytes of the secret (spec §5.2 step 4).
 *
 * @example
 * signSync(secret, canonicalString({ apiKey, path, timestamp, nonce, bodyHash: bodyHashSync(rawBody) }));
 */
export function signSync(secret: string, canonical: string): string {
  assertUsableSecret(secret);
  return hmacHex(secret, canonical);
}

/**
 * Whether `signature` is the signature of `canonical` under `secret`. Only 64 lowercase hex characters are
 * accepted (spec §5.1); the expected and received hex are compared in constant time.
 *
 * @example
 * if (!verifySync(secret, canonical, signatureHeader)) {
 *   // 401 OPEN_API_UNAUTHORIZED
 * }
 */
export function verifySync(secret: string, canonical: string, signature: string): boolean {
  assertUsableSecret(secret);
  if (!isWellFormedSignature(signature)) return false;
  return constantTimeEqual(hmacHex(secret, canonical), signature);
}
