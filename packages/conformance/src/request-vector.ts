/** One request-body vector of spec/test-vectors/requests: `{ description, body | rawBody | rawBodyHex, valid, code }`. */
export interface RequestVector {
  description: string;
  /** The body as a JSON value, serialized once. */
  body?: unknown;
  /** The body as exact text, for bodies that are not one JSON value. */
  rawBody?: string;
  /** The body as hex bytes, for bytes that are not UTF-8. */
  rawBodyHex?: string;
  valid: boolean;
  /** The error code of an invalid body; null for a valid one. */
  code: "REQUEST_INVALID" | "WATCH_REQUEST_INVALID" | null;
  pointer?: string;
  normalized?: unknown;
}
