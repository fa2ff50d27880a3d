/**
 * Request signing for the Webinar Open API (the spec's "Signing requests" guide): the canonical string, body hash,
 * HMAC-SHA256 signature, verification and nonces. One entry for every runtime: node:crypto where the runtime has it
 * (Node, Bun, Deno), Web Crypto elsewhere (browsers, Workers). The published test vectors ship as
 * `@org/webinar-signing/test-vectors.json`.
 */
export { bodyHash } from "./body-hash";
export type { RawBody } from "./body-hash";
export { canonicalString } from "./canonical";
export type { CanonicalInput } from "./canonical";
export { createNonce, isValidNonce } from "./nonce";
export type { RandomSource } from "./nonce";
export type { CryptoBackend, CryptoPreference } from "./crypto-backend";
export { createSigner, sign } from "./sign";
export type { Signer } from "./sign";
export { createRequestSigner } from "./request-signer";
export type {
  RequestSigner,
  RequestSignerOptions,
  RequestToSign,
  SignedHeaders,
  SignedRequest,
} from "./request-signer";
export { signRequest } from "./sign-request";
export type { SignRequestInput } from "./sign-request";
export { isWellFormedSignature } from "./signature-format";
export { isUnixSeconds, unixTimestamp } from "./timestamp";
export { verify } from "./verify";
