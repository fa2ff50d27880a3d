/**
 * Cross-origin access for browser calls (Signing requests: "browser calls from a documentation origin need that origin
 * allowed by cross-origin configuration; otherwise 403 ORIGIN_FORBIDDEN"). Server-to-server calls send no
 * `Origin` and are not affected. No credentials mode: the API uses no cookies.
 */

/** The headers a signed request carries (Signing requests); a preflight may ask for these and nothing else. */
export const SIGNED_REQUEST_HEADERS = ["Content-Type", "X-API-Key", "X-Timestamp", "X-Nonce", "X-Signature"] as const;

/** Readable by browser code: the request id only (nothing secret is ever in a response header). */
const EXPOSED_HEADERS = "X-Request-Id";
const PREFLIGHT_MAX_AGE_SECONDS = "600";

/** Cross-origin policy over an exact list of allowed origins. */
export interface CorsPolicy {
  /** Whether a browser at `origin` may call the API. */
  allows(origin: string): boolean;
  /** Headers of a successful preflight answer (204) for an allowed origin. */
  preflightHeaders(origin: string): Record<string, string>;
  /** Headers every other answer to an allowed origin carries, so the browser lets the page read it. */
  responseHeaders(origin: string): Record<string, string>;
}

/**
 * Validates the allowed origins once (each must be a serialized origin such as `https://docs.example.com`: scheme,
 * host and port only, no path or trailing slash) and returns the policy.
 *
 * @example
 * const cors = createCorsPolicy(["https://docs.example.com"]);
 * cors.allows("https://docs.example.com"); // true
 * cors.allows("https://evil.example");     // false
 */
export function createCorsPolicy(allowedOrigins: readonly string[]): CorsPolicy {
  for (const origin of allowedOrigins) {
    let serialized: string | undefined;
    try {
      serialized = new URL(origin).origin;
    } catch {
      serialized = undefined;
    }
    if (serialized !== origin || serialized === "null") {
      throw new TypeError(
        `allowedOrigins: ${JSON.stringify(origin)} is not a serialized origin like "https://docs.example.com"`,
      );
    }
  }
  const allowed = new Set(allowedOrigins);
  return {
    allows: (origin) => allowed.has(origin),
    preflightHeaders: (origin) => ({
      "Access-Control-Allow-Origin": origin,
      "Access-Control-Allow-Methods": "POST",
      "Access-Control-Allow-Headers": SIGNED_REQUEST_HEADERS.join(", "),
      "Access-Control-Max-Age": PREFLIGHT_MAX_AGE_SECONDS,
      Vary: "Origin, Access-Control-Request-Method, Access-Control-Request-Headers",
    }),
    responseHeaders: (origin) => ({
      "Access-Control-Allow-Origin": origin,
      "Access-Control-Expose-Headers": EXPOSED_HEADERS,
      Vary: "Origin",
    }),
  };
}
