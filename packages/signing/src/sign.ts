import { nodeBodyHash, webBodyHash, type RawBody } from "./body-hash";
import { builtinNodeCrypto, chooseNodeCrypto, type CryptoBackend, type CryptoPreference } from "./crypto-backend";
import { toDigestInput } from "./digest-input";
import { toLowerHex } from "./hex";
import { createKeyCache } from "./key-cache";
import { createNodeHmac, preparedNodeHmac } from "./node-hmac";
import { assertUsableSecret } from "./secret";
import { constantTimeEqual, isWellFormedSignature } from "./signature-format";

/**
 * Importing an HMAC key costs more than signing a short canonical string, so recent keys are kept (see
 * key-cache.ts for the bound).
 */
export const KEY_CACHE_LIMIT = 16;
const encoder = new TextEncoder();
const keyCache = createKeyCache<Promise<CryptoKey>>(KEY_CACHE_LIMIT);

function importHmacKey(secret: string): Promise<CryptoKey> {
  // The secret is raw UTF-8 text, never hex- or Base64-decoded (spec §5.2 step 4).
  return crypto.subtle.importKey("raw", toDigestInput(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
}

/** An import for the cache: one that fails is forgotten, so the next call tries again. */
function importForCache(secret: string): Promise<CryptoKey> {
  const key = importHmacKey(secret);
  key.catch(() => keyCache.delete(secret));
  return key;
}

function cachedHmacKey(secret: string): Promise<CryptoKey> {
  return keyCache.get(secret, importForCache);
}

/** Number of HMAC keys currently cached; for tests of the cache bound. */
export function cachedKeyCount(): number {
  return keyCache.size;
}

async function hmacHex(key: CryptoKey, canonical: string): Promise<string> {
  const mac = await crypto.subtle.sign("HMAC", key, toDigestInput(canonical));
  return toLowerHex(new Uint8Array(mac));
}

/** Web Crypto HMAC through the shared key cache; what {@link sign} does where there is no node:crypto. */
export async function webSign(secret: string, canonical: string): Promise<string> {
  assertUsableSecret(secret);
  return hmacHex(await cachedHmacKey(secret), canonical);
}

/**
 * Lowercase hex HMAC-SHA256 of the canonical string (spec §5.2 step 4), with node:crypto where the runtime has it
 * and Web Crypto elsewhere. The key is the UTF-8 encoding of `secret` as written; a secret that looks like hex or
 * Base64 is still used as text.
 *
 * @example
 * const signature = await sign(process.env.WEBINAR_API_SECRET!, canonicalString({ apiKey, path, timestamp, nonce, bodyHash }));
 * // send it as the X-Signature header
 */
export async function sign(secret: string, canonical: string): Promise<string> {
  assertUsableSecret(secret);
  const nodeCrypto = builtinNodeCrypto();
  return nodeCrypto === undefined ? webSign(secret, canonical) : preparedNodeHmac(nodeCrypto, secret)(canonical);
}

/** Hashes, signs and verifies with one secret whose key is prepared once; see {@link createSigner}. */
export interface Signer {
  /** The implementation in use. */
  readonly backend: CryptoBackend;
  /** Lowercase hex SHA-256 of the exact body, like `bodyHash`. */
  hashBody(body: RawBody): Promise<string>;
  /** Lowercase hex HMAC-SHA256 of `canonical`, like {@link sign}. */
  sign(canonical: string): Promise<string>;
  /** Whether `signature` is the signature of `canonical`, like `verify`; constant-time comparison. */
  verify(canonical: string, signature: string): Promise<boolean>;
  /**
   * The same hashing and signing without promises, when the backend is node:crypto (which is synchronous);
   * `undefined` on Web Crypto. For hot paths that sign many requests; the results are identical.
   */
  readonly sync: SyncSigner | undefined;
}

/** Synchronous {@link Signer} methods, available with the node:crypto backend. */
export interface SyncSigner {
  hashBody(body: RawBody): string;
  sign(canonical: string): string;
}

/**
 * Prepares the HMAC key of one secret once, for callers that keep a secret for the life of the process (a client,
 * a test server). `preference` picks the backend: `auto` (default) is node:crypto where available, else Web Crypto.
 *
 * @example
 * const signer = createSigner(process.env.WEBINAR_API_SECRET!);
 * const signature = await signer.sign(canonical);
 * await signer.verify(canonical, signature); // true
 */
export function createSigner(secret: string, preference: CryptoPreference = "auto"): Signer {
  assertUsableSecret(secret);
  const nodeCrypto = chooseNodeCrypto(preference);
  let signCanonical: (canonical: string) => Promise<string>;
  let hashBody: (body: RawBody) => Promise<string>;
  let sync: SyncSigner | undefined;
  if (nodeCrypto !== undefined) {
    const nodeSync: SyncSigner = {
      hashBody: (body) => nodeBodyHash(nodeCrypto, body),
      sign: createNodeHmac(nodeCrypto, encoder.encode(secret)),
    };
    sync = nodeSync;
    signCanonical = async (canonical) => nodeSync.sign(canonical);
    hashBody = async (body) => nodeSync.hashBody(body);
  } else {
    let key: Promise<CryptoKey> | undefined;
    signCanonical = async (canonical) => hmacHex(await (key ??= importHmacKey(secret)), canonical);
    hashBody = webBodyHash;
  }
  return {
    backend: nodeCrypto === undefined ? "web" : "node",
    hashBody,
    sign: signCanonical,
    sync,
    async verify(canonical, signature) {
      if (!isWellFormedSignature(signature)) return false;
      return constantTimeEqual(await signCanonical(canonical), signature);
    },
  };
}
