/** Characters of an `X-Signature`: a SHA-256 HMAC in hex. */
export const SIGNATURE_LENGTH = 64;
const LOWER_HEX_SIGNATURE = new RegExp(`^[0-9a-f]{${SIGNATURE_LENGTH}}$`);

/**
 * Whether a received `X-Signature` has the only accepted shape: 64 lowercase hex characters (the spec's
 * `Signature` header). Uppercase hex and Base64 are rejected, not normalized. The shape of the received value is
 * public, so rejecting it before any HMAC is computed reveals nothing about the secret.
 *
 * @example
 * isWellFormedSignature("1c8e86e3301dd905a032ce93b3e9e794663d54cb57cea3c2b5abd457147627f3"); // true
 * isWellFormedSignature("HI6G4zAd2QWgMs6Ts+nnlGY9VMtXzqPCtavUVxR2J/M="); // false (Base64)
 */
export function isWellFormedSignature(signature: unknown): signature is string {
  return typeof signature === "string" && LOWER_HEX_SIGNATURE.test(signature);
}

/**
 * Compares two strings of equal length in time that depends only on the length, never on where they differ.
 * Callers check the shape first, so a length mismatch (the only early exit) reveals nothing secret.
 */
export function constantTimeEqual(expected: string, received: string): boolean {
  if (expected.length !== received.length) return false;
  let difference = 0;
  for (let index = 0; index < expected.length; index += 1) {
    difference |= expected.charCodeAt(index) ^ received.charCodeAt(index);
  }
  return difference === 0;
}
