/**
 * API-key secrets at rest. HMAC verification needs the plaintext secret, so it cannot be hashed;
 * it is sealed with AES-256-GCM under the server's key instead. A sealed value is
 * `v1.<base64url(iv)>.<base64url(tag)>.<base64url(ciphertext)>`, and the API key is bound in as associated data,
 * so a sealed secret copied onto another key's row does not open.
 */
import { createCipheriv, createDecipheriv, createHmac } from "node:crypto";
import type { Runtime } from "../runtime";

export interface SecretBox {
  seal(plaintext: string, associatedData: string): string;
  /** Throws when the value was not sealed under this key (or with other associated data). */
  open(sealed: string, associatedData: string): string;
  /** A fingerprint of the key (HMAC of a fixed label), stored to detect a changed key at start. */
  readonly keyCheck: string;
  /** A 32-byte key for another purpose, derived from this one (HMAC of the label), e.g. cursor MACs. */
  deriveKey(label: string): Buffer;
}

const VERSION = "v1";

/**
 * @example
 * const box = createSecretBox(key32Bytes, systemRuntime);
 * const sealed = box.seal(secret, apiKey);
 * box.open(sealed, apiKey) === secret; // true
 */
export function createSecretBox(key: Buffer, runtime: Pick<Runtime, "randomBytes">): SecretBox {
  if (key.length !== 32) throw new RangeError("the secret key must be 32 bytes (AES-256)");
  const keyCopy = Buffer.from(key);
  return {
    keyCheck: createHmac("sha256", keyCopy).update("webinar-server secret key check v1").digest("base64url"),
    deriveKey: (label) => createHmac("sha256", keyCopy).update(`webinar-server derived key: ${label}`).digest(),
    seal(plaintext, associatedData) {
      const iv = runtime.randomBytes(12);
      const cipher = createCipheriv("aes-256-gcm", keyCopy, iv);
      cipher.setAAD(Buffer.from(associatedData, "utf8"));
      const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
      return [
        VERSION,
        iv.toString("base64url"),
        cipher.getAuthTag().toString("base64url"),
        ciphertext.toString("base64url"),
      ].join(".");
    },
    open(sealed, associatedData) {
      const [version, iv, tag, ciphertext] = sealed.split(".");
      if (version !== VERSION || iv === undefined || tag === undefined || ciphertext === undefined) {
        throw new Error("sealed secret has an unknown format");
      }
      const decipher = createDecipheriv("aes-256-gcm", keyCopy, Buffer.from(iv, "base64url"));
      decipher.setAAD(Buffer.from(associatedData, "utf8"));
      decipher.setAuthTag(Buffer.from(tag, "base64url"));
      return Buffer.concat([decipher.update(Buffer.from(ciphertext, "base64url")), decipher.final()]).toString("utf8");
    },
  };
}
