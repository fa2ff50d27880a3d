/**
 * HMAC-SHA256 with node:crypto for a key prepared once (a client's secret, a server's recent secrets).
 *
 * Node has no one-shot HMAC: `createHmac` builds an Hmac object and an OpenSSL MAC context on every call, which for
 * a canonical string of a few hundred bytes costs more than the hashing itself. HMAC is defined as two hashes over
 * the key's padded forms (RFC 2104): H((K ^ opad) || H((K ^ ipad) || message)). With the pads made once per key,
 * a signature is two calls of the one-shot `hash` (Node 20.12+), with no object per call.
 *
 * That shortcut needs the inner pad as text: hashing `innerPad + message` as UTF-8 must hash the pad's bytes as they
 * are, which holds when every key byte is below 0x80 (ASCII, as API secrets are). Other keys (non-ASCII text, more
 * than a block) and runtimes without `hash` use `createHmac` with a key object. Both agree with `createHmac` on
 * every vector and on generated keys and messages (node-hmac.test.ts).
 */
import type { NodeCrypto } from "./crypto-backend";
import { createKeyCache } from "./key-cache";

/** Lowercase hex HMAC-SHA256 of a message, encoded as UTF-8, under one key. */
export type HmacHex = (message: string) => string;

/** SHA-256 block size (RFC 2104's B) and digest size (L), in bytes. */
const BLOCK_BYTES = 64;
const DIGEST_BYTES = 32;
const INNER_PAD = 0x36;
const OUTER_PAD = 0x5c;

function isPaddableAsText(key: Uint8Array): boolean {
  return key.length <= BLOCK_BYTES && key.every((byte) => byte < 0x80);
}

/**
 * The HMAC of `key` (the secret's UTF-8 bytes), prepared once.
 *
 * @example
 * const hmac = createNodeHmac(nodeCrypto, new TextEncoder().encode(secret));
 * hmac(canonical); // the X-Signature of canonical
 */
export function createNodeHmac(nodeCrypto: NodeCrypto, key: Uint8Array): HmacHex {
  const { hash } = nodeCrypto;
  if (hash === undefined || !isPaddableAsText(key)) {
    const keyObject = nodeCrypto.createSecretKey(key);
    return (message) => nodeCrypto.createHmac("sha256", keyObject).update(message, "utf8").digest("hex");
  }
  // A key shorter than the block is padded with zero bytes; ASCII key bytes stay ASCII after either XOR.
  let innerPad = "";
  const outerInput = new Uint8Array(BLOCK_BYTES + DIGEST_BYTES);
  for (let index = 0; index < BLOCK_BYTES; index += 1) {
    const byte = key[index] ?? 0;
    innerPad += String.fromCharCode(byte ^ INNER_PAD);
    outerInput[index] = byte ^ OUTER_PAD;
  }
  return (message) => {
    // "binary" (latin1) text: one character per digest byte, with no Buffer to allocate.
    const inner = hash("sha256", innerPad + message, "binary");
    // The outer input is reused: the call is synchronous, so nothing else writes it between these lines.
    for (let index = 0; index < DIGEST_BYTES; index += 1) outerInput[BLOCK_BYTES + index] = inner.charCodeAt(index);
    return hash("sha256", outerInput, "hex");
  };
}

/** Most secrets whose prepared HMACs are kept: a server verifies with a handful, a client signs with one. */
export const PREPARED_KEY_LIMIT = 64;
const encoder = new TextEncoder();
const prepared = createKeyCache<HmacHex>(PREPARED_KEY_LIMIT);
let prepare: ((secret: string) => HmacHex) | undefined;

/**
 * The HMAC of a secret given as text (its UTF-8 bytes are the key, never hex- or Base64-decoded: spec §5.2 step 4),
 * prepared on first use and kept for the most recent {@link PREPARED_KEY_LIMIT} secrets. A runtime has one
 * node:crypto, so the first caller's is the one every later call uses.
 */
export function preparedNodeHmac(nodeCrypto: NodeCrypto, secret: string): HmacHex {
  prepare ??= (text) => createNodeHmac(nodeCrypto, encoder.encode(text));
  return prepared.get(secret, prepare);
}
