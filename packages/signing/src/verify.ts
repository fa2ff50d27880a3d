import { createSigner } from "./sign";

/**
 * Whether `signature` is the signature of `canonical` under `secret`, with node:crypto where the runtime has it
 * and Web Crypto elsewhere. Anything but 64 lowercase hex characters (uppercase hex, Base64, a missing header) is
 * rejected before any HMAC is computed; a well-formed signature is compared with the expected one in constant time.
 * An empty secret throws a `TypeError`: it is a configuration mistake, not a mismatch.
 *
 * @example
 * const hash = await bodyHash(rawBody);
 * const canonical = canonicalString({ apiKey, path: url.pathname, timestamp, nonce, bodyHash: hash });
 * if (!(await verify(secretOf(apiKey), canonical, request.headers.get("x-signature") ?? ""))) {
 *   // 401 OPEN_API_UNAUTHORIZED
 * }
 */
export async function verify(secret: string, canonical: string, signature: string): Promise<boolean> {
  return createSigner(secret).verify(canonical, signature);
}
