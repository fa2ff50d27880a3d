import { limits } from "@org/webinar-types";
import { toLowerHex } from "./hex";

// The Nonce header: nonceMinLength-nonceMaxLength characters of A-Z a-z 0-9 _ -, lengths from x-limits.
const NONCE = new RegExp(`^[A-Za-z0-9_-]{${limits.nonceMinLength},${limits.nonceMaxLength}}$`);

/** Fills `bytes` with cryptographically secure random values. */
export type RandomSource = (bytes: Uint8Array) => void;

const cryptoRandom: RandomSource = (bytes) => {
  crypto.getRandomValues(bytes);
};

/**
 * A fresh `X-Nonce`: 16 bytes from the platform CSPRNG as 32 lowercase hex characters, the form the spec
 * recommends. Use a new one for every request, including every retry. Tests may pass their own random source.
 *
 * @example
 * createNonce(); // "3f9c2a7d51e84b06a1c9e2f47d8b3a65"
 */
export function createNonce(random: RandomSource = cryptoRandom): string {
  const bytes = new Uint8Array(16);
  random(bytes);
  return toLowerHex(bytes);
}

/**
 * Whether a value is an acceptable `X-Nonce`: 16 to 128 characters from `A-Z a-z 0-9 _ -` (the spec's `Nonce`
 * header).
 *
 * @example
 * isValidNonce("3f9c2a7d51e84b06a1c9e2f47d8b3a65"); // true
 * isValidNonce("too-short"); // false
 */
export function isValidNonce(value: unknown): value is string {
  return typeof value === "string" && NONCE.test(value);
}
