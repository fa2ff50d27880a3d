/**
 * The types of the signed-request check (verify-signed-request.ts) that its steps, the verifier and the adapters
 * share: the request as received, what a key lookup returns, the options, and the two kinds of answer.
 */
import type { Signer } from "@org/webinar-signing";
import type { ErrorEnvelope, OperationId } from "@org/webinar-types";
import type { NonceStore } from "./nonce-store";
import type { PathMatch } from "./request-path";
import type { RequestHeaders } from "./request-headers";

/**
 * Reads the request body, stopping once it exceeds `maxBytes`: resolves the bytes, or `undefined` when the body
 * is larger than `maxBytes`. Adapters pass one so an unauthenticated request's body is read only after its
 * headers passed, and never beyond the limit.
 */
export type BodyReader = (maxBytes: number) => Promise<Uint8Array | undefined>;

/** A request as received, before any router or body parser touched it. */
export interface IncomingRequest {
  /** HTTP method as received, e.g. `"POST"`. */
  method: string;
  /** The request target exactly as received: path and query, not decoded or normalized (Node's `req.url`). */
  rawPath: string;
  /** Headers with repeated headers still visible; see {@link RequestHeaders}. */
  headers: RequestHeaders;
  /** The raw body bytes, or a reader that fetches them once the headers have passed. */
  body: Uint8Array | BodyReader;
  /** The `Origin` header when the framework keeps it apart; read from `headers` otherwise. */
  origin?: string;
  /**
   * The id the server already gave this request (its access log's, say); every answer then carries it. Default:
   * a new one from `createRequestId`.
   */
  requestId?: string | undefined;
  /** `verifier.matchPath(rawPath)` when the adapter already classified the path; computed when absent. */
  pathMatch?: PathMatch | undefined;
}

/** What `lookupKey` knows about an API key. Unknown and revoked keys are `undefined`. */
export interface ApiKeyRecord {
  /** The key's secret as stored: raw text, used as the HMAC key's UTF-8 bytes ("Signing requests"). */
  secret: string;
  /**
   * The same secret prepared once, `createSigner(secret)` of @org/webinar-signing, for a server that keeps its key
   * records in memory: made once when a record is read or cached and returned with it every time, it hashes the
   * body and verifies the signature, so the HMAC key is not prepared again for each request. Without it the
   * verifier prepares `secret` per request.
   *
   * @example
   * const record = { secret, merchantId, status: "ACTIVE", signer: createSigner(secret) };
   */
  signer?: Signer;
  /** The merchant the key belongs to. */
  merchantId: string;
  /** `SUSPENDED` merchants are answered 403 `TENANT_SUSPENDED` once their signature verifies. */
  status: "ACTIVE" | "SUSPENDED";
}

/** Where a dependency failed; see {@link SignedRequestOptions.onError}. */
export type FailureSource = "lookupKey" | "nonceStore" | "adapter";

/** Options of {@link verifySignedRequest} and `createRequestVerifier`. */
export interface SignedRequestOptions {
  /**
   * Finds an API key's secret, merchant and merchant status; `undefined` for an unknown or revoked key (401).
   * A throw or rejection is answered 503 `AUTH_DEPENDENCY_UNAVAILABLE`.
   */
  lookupKey(apiKey: string): Promise<ApiKeyRecord | undefined>;
  /** Where used nonces are kept; shared by every process that accepts the same keys. */
  nonceStore: NonceStore;
  /** Clock in epoch milliseconds; default `Date.now`. */
  now?: () => number;
  /** Deployer-configurable limits (the spec's "Limits" guide); defaults from the spec's `x-limits`. */
  limits?: { clockSkewSeconds?: number; maxBodyBytes?: number };
  /** Browser origins allowed to call the API (exact serialized origins); default none. */
  allowedOrigins?: readonly string[];
  /**
   * Path prefix in front of every operation path when a proxy forwards it unchanged, e.g. `/webinar` for
   * `/webinar/api/v1/open/viewers/upsert`; clients sign the full path. Default `""`.
   */
  basePath?: string;
  /** Request id of each answer; default `req_` + 32 random hex characters. */
  createRequestId?: () => string;
  /** Told about dependency failures answered 503 (and adapter failures answered 500), e.g. to log them. */
  onError?: (error: unknown, source: FailureSource) => void;
}

/** A request whose signature verified: who sent it, to which operation, with which raw body. */
export interface AuthenticatedRequest<Op extends OperationId = OperationId> {
  ok: true;
  merchantId: string;
  apiKey: string;
  operationId: Op;
  /** The raw body bytes, exactly as signed. */
  body: Uint8Array;
  requestId: string;
  /** Headers the answer must carry: `X-Request-Id`, and the CORS headers of an allowed browser origin. */
  headers: Record<string, string>;
}

/**
 * An answer to send instead of handling the request: an error envelope with its status and headers, or, for a
 * CORS preflight from an allowed origin, 204 with `body: null`.
 */
export interface RequestRejection {
  ok: false;
  status: number;
  body: ErrorEnvelope | null;
  headers: Record<string, string>;
  /**
   * Only when the signature did not match an active key's secret: the canonical string the verifier computed
   * and checked the signature against (API key, method, path, X-Timestamp, X-Nonce, body hash; never the secret
   * or the body), so a server can show a developer why their signature differs. Never sent in the answer.
   */
  canonicalString?: string;
}

/**
 * The same as {@link AuthenticatedRequest}.
 * @deprecated Use `AuthenticatedRequest`; `SignedRequest` is also the name of what `signRequest` of
 * @org/webinar-signing returns.
 */
export type SignedRequest<Op extends OperationId = OperationId> = AuthenticatedRequest<Op>;
