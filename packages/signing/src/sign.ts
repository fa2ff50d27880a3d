import { toDigestInput } from "./digest-input";
import { toLowerHex } from "./hex";
import { assertUsableSecret } from "./secret";
import { constantTimeEqual, isWellFormedSignature } from "./signature-format";

/**
 * Importing an HMAC key costs more than signing a short canonical string, and a process usually signs with one or
 * a few secrets, so recent keys are kept. The cache is small and evicts the least recently used secret, so a server
 * verifying for many merchants cannot grow it without bound.
 */
export const KEY_CACHE_LIMIT = 16;
const keyCache = new Map<string, Promise<CryptoKey>>();

function importHmacKey(secret: string): Promise<CryptoKey> {
  // The secret is raw UTF-8 text, never hex- or Base64-decoded (spec §5.2 step 4).
  return crypto.subtle.importKey("raw", toDigestInput(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
}

function cachedHmacKey(secret: string): Promise<CryptoKey> {
  const cached = keyCache.get(secret);
  if (cached !== undefined) {
    keyCache.delete(secret);
    keyCache.set(secret, cached);
    return cached;
  }
  const key = importHmacKey(secret);
  keyCache.set(secret, key);
  key.catch(() => keyCache.delete(secret));
  while (keyCache.size > KEY_CACHE_LIMIT) {
    const oldest = keyCache.keys().next();
    if (oldest.done === true) break;
    keyCache.delete(oldest.value);
  }
  return key;
}

/** Number of HMAC keys currently cached; for tests of the cache bound. */
export function cachedKeyCount(): number {
  return keyCache.size;
}

async function hmacHex(key: CryptoKey, canonical: string): Promise<string> {
  const mac = await crypto.subtle.sign("HMAC", key, toDigestInput(canonical));
  return toLowerHex(new Uint8Array(mac));
}

/**
 * Lowercase hex HMAC-SHA256 of the canonical string (spec §5.2 step 4), with Web Crypto. The key is the UTF-8
 * encoding of `secret` as written; a secret that looks like hex or Base64 is still used as text.
 *
 * @example
 * const signature = await sign(process.env.WEBINAR_API_SECRET!, canonicalString({ apiKey, path, timestamp, nonce, bodyHash }));
 * // send it as the X-Signature header
 */
export async function sign(secret: string, canonical: string): Promise<string> {
  assertUsableSecret(secret);
  return hmacHex(await cachedHmacKey(secret), canonical);
}

/** Signs and verifies with one secret whose HMAC key is imported once; see {@link createSigner}. */
export interface Signer {
  /** Lowercase hex HMAC-SHA256 of `canonical`, like {@link sign}. */
  sign(canonical: string): Promise<string>;
  /** Whether `signature` is the signature of `canonical`, like `verify`. */
  verify(canonical: string, signature: string): Promise<boolean>;
}

/**
 * Holds the imported HMAC key of one secret, for callers that keep a secret for the life of the process and do
 * not want it in the shared key cache.
 *
 * @example
 * const signer = createSigner(process.env.WEBINAR_API_SECRET!);
 * const signature = await signer.sign(canonical);
 * await signer.verify(canonical, signature); // true
 */
export function createSigner(secret: string): Signer {
  assertUsableSecret(secret);
  let key: Promise<CryptoKey> | undefined;
  const hmacKey = () => (key ??= importHmacKey(secret));
  return {
    async sign(canonical) {
      return hmacHex(await hmacKey(), canonical);
    },
    async verify(canonical, signature) {
      if (!isWellFormedSignature(signature)) return false;
      return constantTimeEqual(await hmacHex(await hmacKey(), canonical), signature);
    },
  };
}
