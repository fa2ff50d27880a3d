import { builtinNodeCrypto, type NodeCrypto } from "./crypto-backend";
import { toDigestInput } from "./digest-input";
import { toLowerHex } from "./hex";

/** The exact request body: the bytes sent, or the string whose UTF-8 encoding is sent. */
export type RawBody = Uint8Array | ArrayBuffer | string;

/** SHA-256 with node:crypto; a string is hashed as UTF-8. */
export function nodeBodyHash(nodeCrypto: NodeCrypto, body: RawBody): string {
  return nodeCrypto
    .createHash("sha256")
    .update(body instanceof ArrayBuffer ? new Uint8Array(body) : body)
    .digest("hex");
}

/** SHA-256 with Web Crypto. */
export async function webBodyHash(body: RawBody): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", toDigestInput(body));
  return toLowerHex(new Uint8Array(digest));
}

/**
 * Lowercase hex SHA-256 of the raw body (the `bodyHash` line of the canonical string), with node:crypto where the
 * runtime has it and Web Crypto elsewhere. Hash the bytes you send: a string is encoded as UTF-8, a `Uint8Array`
 * is hashed over exactly its view.
 *
 * @example
 * const rawBody = JSON.stringify({ externalUserId: "crm-10086", displayName: "张三" });
 * await bodyHash(rawBody); // "93f367d8b3cb5ad87aed00c876dbefa425b1963b0dc7adca50cda75cfb082518"
 */
export async function bodyHash(body: RawBody): Promise<string> {
  const nodeCrypto = builtinNodeCrypto();
  return nodeCrypto === undefined ? webBodyHash(body) : nodeBodyHash(nodeCrypto, body);
}
