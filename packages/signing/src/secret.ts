/**
 * An empty secret is always a configuration mistake (an unset environment variable), and Web Crypto refuses
 * zero-length HMAC keys with an obscure error; fail early and plainly instead.
 */
export function assertUsableSecret(secret: unknown): asserts secret is string {
  if (typeof secret !== "string" || secret.length === 0) {
    throw new TypeError("secret must be a non-empty string (the API secret from the merchant console, as raw text)");
  }
}
