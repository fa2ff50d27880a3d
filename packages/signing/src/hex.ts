// Lowercase hex is the only encoding of bodyHash and X-Signature; one lookup table serves both.
const byteToHex: readonly string[] = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, "0"));

/** Lowercase hex of the bytes, two characters per byte. */
export function toLowerHex(bytes: Uint8Array): string {
  let hex = "";
  for (const byte of bytes) hex += byteToHex[byte];
  return hex;
}
