import { assertUsableSecret } from "./secret";
import { sign } from "./sign";
import { constantTimeEqual, isWellFormedSignature } from "./signature-format";

/**
 * Whether `signature` is the signature of `canonical` under `secret` (spec §5.2), with node:crypto where the
 * runtime has it and Web Crypto elsewhere. Anything but
 * 64 lowercase hex characters (uppercase hex, Base64, a missing header) is rejected before any HMAC is computed;
 * a well-formed signature is compared with the expected one in constant time.
 *
 * @example
 * const canonical = canonicalString({ apiKey, path: url.pathname, timestamp, nonce, bodyHash: await bodyHash(rawBody) });
 * if (!(await verify(secretOf(apiKey), canonical, request.headers.get("x-signature") ?? ""))) {
 *   // 401 OPEN_API_UNAUTHORIZED
 * }
 */
export async function verify(secret: string, canonical: string, signature: string): Promise<boolean> {
  assertUsableSecret(secret);
  if (!isWellFormedSignature(signature)) return false;
  return constantTimeEqual(await sign(secret, canonical), signature);
}
