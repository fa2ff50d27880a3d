/**
 * Server-side verification for the Webinar Open API: the signed-request pipeline of the spec's "Signing requests"
 * guide (signature, timestamp, nonce, merchant status, CORS) and validation of each operation's request body
 * with ajv validators precompiled from spec/openapi.yaml. Web APIs only, so this entry runs on Node, Bun, Deno,
 * Workers and in browsers.
 *
 * The framework adapters are subpaths: `@org/webinar-validator/express`, `/fastify`, `/hono`, `/node`; the shared
 * nonce stores are `/nonce-store/postgres` and `/nonce-store/redis`; response validation for contract tests is
 * `/contract`.
 *
 * @example
 * import { createMemoryNonceStore, createRequestVerifier } from "@org/webinar-validator";
 * import { webinarExpress } from "@org/webinar-validator/express";
 *
 * const verifier = createRequestVerifier({ lookupKey, nonceStore: createMemoryNonceStore() });
 * app.use(webinarExpress(verifier));
 */
export { createRequestVerifier } from "./request-verifier";
export type {
  RequestVerifier,
  RequestVerifierOptions,
  VerifiedRequest,
  VerifiedRequestOf,
  VerifyInit,
} from "./request-verifier";

export { verifySignedRequest } from "./verify-signed-request";
export type {
  ApiKeyRecord,
  AuthenticatedRequest,
  BodyReader,
  FailureSource,
  IncomingRequest,
  RequestRejection,
  SignedRequest,
  SignedRequestOptions,
} from "./signed-request-types";
export type { RequestHeaders } from "./request-headers";

export { MAX_REPORTED_ISSUES, parseAndValidate } from "./parse-and-validate";
export type { ParseResult } from "./parse-and-validate";
export { ANSWER_HEADERS, defaultRequestId, errorEnvelope } from "./error-envelope";
export type { ErrorEnvelopeOf, ValidationIssue } from "./error-envelope";
export { toValidationIssue } from "./validation-issue";
export type { SchemaError } from "./validation-issue";
export { isJsonContentType } from "./content-type";

export { createMemoryNonceStore, NonceStoreFullError } from "./nonce-store";
export type { MemoryNonceStoreOptions, NonceStore } from "./nonce-store";

export { SIGNED_REQUEST_HEADERS } from "./cors";

// What the PostgreSQL nonce store's `groupCommit.onWrite` is told of each statement.
export type { BatchWritten } from "@org/webinar-internal/group-commit";

export { readWebBody } from "./web-request";
export { rejectionResponse, verifyWebRequest } from "./adapters/web";
export type { WebRequestInit } from "./adapters/web";
export { readNodeBody } from "./adapters/node-body";
export type { NodeBodyStream } from "./adapters/node-body";

export { specSha256 } from "./request-validators.gen.js";
