/** The six values of the canonical string, in the order of step 3 of the spec's "Signing requests" guide. */
export interface CanonicalInput {
  /** The `X-API-Key` value. */
  apiKey: string;
  /** HTTP method; the spec's only method is `POST`, which is the default. */
  method?: string;
  /** The request path as sent, without scheme, host, query or fragment, e.g. `/api/v1/open/viewers/upsert`. */
  path: string;
  /** The `X-Timestamp` value: Unix seconds as a decimal string. */
  timestamp: string;
  /** The `X-Nonce` value. */
  nonce: string;
  /** Lowercase hex SHA-256 of the exact body bytes (see `bodyHash`). */
  bodyHash: string;
}

const LINE_BREAK = /[\r\n]/;
const FIELD_NAMES = ["apiKey", "method", "path", "timestamp", "nonce", "bodyHash"] as const;

/**
 * Builds the string that is signed ("Signing requests" guide, step 3): API key, method, path, timestamp, nonce
 * and body hash, joined by a single line feed, with no trailing line feed. Values are used verbatim; a value containing
 * a line break would make two different requests share one canonical string, so it throws a `TypeError`.
 *
 * @example
 * canonicalString({
 *   apiKey: "wk_live_7Qm2x9Lp4Rt8Vb1N",
 *   path: "/api/v1/open/viewers/upsert",
 *   timestamp: "1767225600",
 *   nonce: "3f9c2a7d51e84b06a1c9e2f47d8b3a65",
 *   bodyHash: await bodyHash(rawBody),
 * });
 * // "wk_live_7Qm2x9Lp4Rt8Vb1N\nPOST\n/api/v1/open/viewers/upsert\n1767225600\n3f9c…65\n<bodyHash>"
 */
export function canonicalString({ apiKey, method = "POST", path, timestamp, nonce, bodyHash }: CanonicalInput): string {
  const values = [apiKey, method, path, timestamp, nonce, bodyHash];
  values.forEach((value, index) => {
    if (typeof value !== "string") throw new TypeError(`canonicalString: ${FIELD_NAMES[index]} must be a string`);
    if (LINE_BREAK.test(value))
      throw new TypeError(`canonicalString: ${FIELD_NAMES[index]} must not contain a line break (one value per line)`);
  });
  return values.join("\n");
}
