/**
 * Request signing for the Webinar Open API (spec §5): the canonical string, body hash, HMAC-SHA256 signature,
 * verification and nonces, on Web Crypto so it runs in Node, browsers, Deno, Bun and Workers. Servers that want
 * synchronous node:crypto import `bodyHashSync`, `signSync` and `verifySync` from `@org/webinar-signing/node`.
 */
export { bodyHash } from "./body-hash";
export type { RawBody } from "./body-hash";
export { canonicalString } from "./canonical";
export type { CanonicalInput } from "./canonical";
export { createNonce, isValidNonce } from "./nonce";
export type { RandomSource } from "./nonce";
export type { CryptoBackend, CryptoPreference } from "./crypto-backend";
export { createSigner, sign } from "./sign";
export type { Signer, SyncSigner } from "./sign";
export { signRequest } from "./sign-request";
export type { SignedHeaders, SignedRequest, SignRequestInput } from "./sign-request";
export { isWellFormedSignature } from "./signature-format";
export { isUnixSeconds, unixTimestamp } from "./timestamp";
export { verify } from "./verify";
