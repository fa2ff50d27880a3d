/**
 * HMAC-SHA256 with each platform's own implementation: node:crypto's `createHmac` with a key object, or Web
 * Crypto's `crypto.subtle.sign` with an imported key. The key is the UTF-8 encoding of the secret as written,
 * never hex- or Base64-decoded.
 */
import { nodeBodyHash, webBodyHash, type RawBody } from "./body-hash";
import { chooseNodeCrypto, type CryptoBackend, type CryptoPreference, type NodeCrypto } from "./crypto-backend";
import { toDigestInput } from "./digest-input";
import { toLowerHex } from "./hex";
import { assertUsableSecret } from "./secret";
import { constantTimeEqual, isWellFormedSignature } from "./signature-format";

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
}

function nodeHmac(nodeCrypto: NodeCrypto, secret: string): (canonical: string) => Promise<string> {
  const key = nodeCrypto.createSecretKey(toDigestInput(secret));
  return async (canonical) => nodeCrypto.createHmac("sha256", key).update(canonical, "utf8").digest("hex");
}

function webHmac(secret: string): (canonical: string) => Promise<string> {
  // Imported on first use, so creating a signer needs no promise.
  let key: Promise<CryptoKey> | undefined;
  return async (canonical) => {
    key ??= crypto.subtle.importKey("raw", toDigestInput(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
    const mac = await crypto.subtle.sign("HMAC", await key, toDigestInput(canonical));
    return toLowerHex(new Uint8Array(mac));
  };
}

/**
 * Prepares the HMAC key of one secret once, for callers that keep a secret for the life of the process (a client,
 * a server's key record). `preference` picks the backend: `auto` (default) is node:crypto where the runtime has it,
 * else Web Crypto; `node` and `web` force one (for tests, or to compare them).
 *
 * @example
 * const signer = createSigner(process.env.WEBINAR_API_SECRET!);
 * const signature = await signer.sign(canonical);
 * await signer.verify(canonical, signature); // true
 */
export function createSigner(secret: string, preference: CryptoPreference = "auto"): Signer {
  assertUsableSecret(secret);
  const nodeCrypto = chooseNodeCrypto(preference);
  const signCanonical = nodeCrypto === undefined ? webHmac(secret) : nodeHmac(nodeCrypto, secret);
  return {
    backend: nodeCrypto === undefined ? "web" : "node",
    hashBody: nodeCrypto === undefined ? webBodyHash : async (body) => nodeBodyHash(nodeCrypto, body),
    sign: signCanonical,
    async verify(canonical, signature) {
      // The shape of a received value is public: rejecting it before any HMAC reveals nothing about the secret.
      if (!isWellFormedSignature(signature)) return false;
      return constantTimeEqual(await signCanonical(canonical), signature);
    },
  };
}

/**
 * Lowercase hex HMAC-SHA256 of the canonical string (the `X-Signature` value), with node:crypto where the runtime
 * has it and Web Crypto elsewhere. The key is the UTF-8 encoding of `secret` as written; a secret that looks like
 * hex or Base64 is still used as text. To sign many requests with one secret, {@link createSigner} prepares its key
 * once.
 *
 * @example
 * const canonical = canonicalString({ apiKey, path, timestamp, nonce, bodyHash });
 * const signature = await sign(process.env.WEBINAR_API_SECRET!, canonical);
 * // send it as the X-Signature header
 */
export async function sign(secret: string, canonical: string): Promise<string> {
  return createSigner(secret).sign(canonical);
}
