const encoder = new TextEncoder();

/**
 * The bytes Web Crypto should digest: strings as UTF-8 (as the signature requires), views as exactly their window, and
 * a copy only when the view sits on a SharedArrayBuffer, which Web Crypto refuses.
 */
export function toDigestInput(value: Uint8Array | ArrayBuffer | string): Uint8Array<ArrayBuffer> {
  if (typeof value === "string") return encoder.encode(value);
  if (value instanceof ArrayBuffer) return new Uint8Array(value);
  if (value.buffer instanceof ArrayBuffer) return value as Uint8Array<ArrayBuffer>;
  return new Uint8Array(value);
}
