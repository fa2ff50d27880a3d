/**
 * Server-side verification for the Webinar Open API: precompiled ajv validators generated from
 * spec/openapi.yaml, the signed-request pipeline of spec §5 (signature, timestamp, nonce, merchant status,
 * CORS), body parsing and validation of §4, and adapters for node:http, Express, Fastify and Web `Request`
 * (Hono, Workers, Next.js). Response validation for contract tests is `@org/webinar-validator/contract`.
 *
 * @example
 * import { createMemoryNonceStore, createRequestVerifier, webinarExpress } from "@org/webinar-validator";
 *
 * const verifier = createRequestVerifier({ lookupKey, nonceStore: createMemoryNonceStore() });
 * app.use(webinarExpress(verifier));
 */
export { createRequestVerifier } from "./request-verifier";
export type { RequestVerifier, RequestVerifierOptions, VerifiedRequest, VerifiedRequestOf } from "./request-verifier";

export { verifySignedRequest } from "./verify-signed-request";
export type {
  ApiKeyRecord,
  BodyReader,
  FailureSource,
  IncomingRequest,
  RequestRejection,
  SignedRequest,
  SignedRequestOptions,
} from "./verify-signed-request";
export type { RequestHeaders } from "./request-headers";

export { MAX_REPORTED_ISSUES, parseAndValidate } from "./parse-and-validate";
export type { ParseResult } from "./parse-and-validate";
export type { ValidationIssue } from "./error-envelope";

export { createMemoryNonceStore, NonceStoreFullError } from "./nonce-store";
export type { MemoryNonceStoreOptions, NonceStore } from "./nonce-store";

export { SIGNED_REQUEST_HEADERS } from "./cors";

export { readWebBody, rejectionResponse, verifyWebRequest } from "./adapters/web";
export type { WebRequestInit } from "./adapters/web";
export { verifyNodeRequest, writeNodeRejection } from "./adapters/node";
export { readNodeBody } from "./adapters/node-body";
export { webinarExpress } from "./adapters/express";
export type { ExpressLikeMiddleware, ExpressLikeRequest } from "./adapters/express";
export { webinarFastify } from "./adapters/fastify";
export type { FastifyLikeInstance, FastifyLikePlugin, FastifyLikeReply, FastifyLikeRequest } from "./adapters/fastify";

export { specSha256 } from "./request-validators.gen.js";
