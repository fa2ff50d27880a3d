import { toLowerHex } from "./hex";
import { toDigestInput } from "./digest-input";

/** The exact request body: the bytes sent, or the string whose UTF-8 encoding is sent. */
export type RawBody = Uint8Array | ArrayBuffer | string;

/**
 * Lowercase hex SHA-256 of the raw body (spec §5.2 step 2), with Web Crypto. Hash the bytes you send: a string is
 * encoded as UTF-8, a `Uint8Array` is hashed over exactly its view.
 *
 * @example
 * const rawBody = JSON.stringify({ externalUserId: "crm-10086", displayName: "张三" });
 * await bodyHash(rawBody); // "93f367d8b3cb5ad87aed00c876dbefa425b1963b0dc7adca50cda75cfb082518"
 */
export async function bodyHash(body: RawBody): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", toDigestInput(body));
  return toLowerHex(new Uint8Array(digest));
}
