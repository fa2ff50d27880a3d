/**
 * The signed-request check of the spec's "Signing requests" guide, framework-neutral: origin, path, method,
 * signature headers, content type and encoding, body size, timestamp, key, signature, merchant status and nonce,
 * in that order. Cheap checks that need no secret come first, so a malformed or unauthenticated request costs
 * neither a key lookup nor a nonce; the nonce is consumed only after the signature verifies, so a forged request
 * cannot burn a client's nonce. Every answer carries a request id; statuses come from the spec's error catalog,
 * except 404 and 405, which the spec's "Errors and retries" guide gives to routing (both with the code
 * `REQUEST_INVALID`).
 */
import {
  limits as specLimits,
  operations,
  type ErrorCode,
  type ErrorEnvelope,
  type OperationId,
} from "@org/webinar-types";
import {
  bodyHash,
  canonicalString,
  isUnixSeconds,
  isValidNonce,
  isWellFormedSignature,
  verify,
} from "@org/webinar-signing";
import { isJsonContentType } from "./content-type";
import { createCorsPolicy, type CorsPolicy } from "./cors";
import { ANSWER_HEADERS, defaultRequestId, ERROR_RESPONSE_HEADERS, errorEnvelope, statusOf } from "./error-envelope";
import type { NonceStore } from "./nonce-store";
import { headerValues, singleHeader, type HeaderProblem, type RequestHeaders } from "./request-headers";
import { createOperationPathMatcher } from "./request-path";

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
}

/** What `lookupKey` knows about an API key. Unknown and revoked keys are `undefined`. */
export interface ApiKeyRecord {
  /** The key's secret as stored: raw text, used as the HMAC key's UTF-8 bytes ("Signing requests"). */
  secret: string;
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
export interface SignedRequest<Op extends OperationId = OperationId> {
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
}

const pathOf = (operationId: OperationId): string => operations[operationId].path;

function isIdentityEncoding(values: readonly string[]): boolean {
  return values.length === 0 || (values.length === 1 && values[0]!.trim().toLowerCase() === "identity");
}

function positiveInteger(value: number, name: string): number {
  if (!Number.isSafeInteger(value) || value <= 0)
    throw new RangeError(`limits.${name} must be a positive integer, got ${value}`);
  return value;
}

const SIGNATURE_MISMATCH = "request signature could not be verified";
const METHOD_NOT_ALLOWED_HEADERS: Readonly<Record<string, string>> = Object.freeze({ Allow: "POST" });

/** An error answer: the envelope, its status (from the spec's error catalog unless given) and headers. */
function rejection(
  requestId: string,
  headers: Record<string, string>,
  code: ErrorCode,
  message: string,
  status: number = statusOf(code),
  extraHeaders?: Readonly<Record<string, string>>,
): RequestRejection {
  return {
    ok: false,
    status,
    body: errorEnvelope(requestId, code, message),
    headers: { ...ERROR_RESPONSE_HEADERS, ...headers, ...extraHeaders },
  };
}

function headerProblem(
  requestId: string,
  headers: Record<string, string>,
  name: string,
  { problem }: HeaderProblem,
): RequestRejection {
  return rejection(
    requestId,
    headers,
    "REQUEST_INVALID",
    `${name} is ${problem}: each signature header must appear exactly once`,
  );
}

type VerifySignature = (request: IncomingRequest) => Promise<SignedRequest | RequestRejection>;

/**
 * Validates the options once and returns the check. `createRequestVerifier` and the adapters build on it.
 * @internal
 */
export function compileSignedRequestCheck(options: SignedRequestOptions): VerifySignature {
  if (typeof options.lookupKey !== "function") throw new TypeError("lookupKey must be a function");
  if (typeof options.nonceStore?.consume !== "function")
    throw new TypeError("nonceStore must have a consume(apiKey, nonce, expiresAtMs) method");
  const now = options.now ?? Date.now;
  const clockSkewSeconds = positiveInteger(
    options.limits?.clockSkewSeconds ?? specLimits.clockSkewSeconds,
    "clockSkewSeconds",
  );
  const maxBodyBytes = positiveInteger(options.limits?.maxBodyBytes ?? specLimits.maxBodyBytes, "maxBodyBytes");
  // A nonce must outlive every moment its timestamp is acceptable: twice the skew window (see nonce-store.ts).
  const nonceRetentionMs = 2 * clockSkewSeconds * 1000;
  const cors: CorsPolicy | undefined = options.allowedOrigins?.length
    ? createCorsPolicy(options.allowedOrigins)
    : undefined;
  const createRequestId = options.createRequestId ?? defaultRequestId;
  const basePath = options.basePath ?? "";
  const matchOperationPath = createOperationPathMatcher(basePath);
  const { lookupKey, nonceStore, onError } = options;

  const unavailable = (requestId: string, headers: Record<string, string>, error: unknown, source: FailureSource) => {
    onError?.(error, source);
    return rejection(requestId, headers, "AUTH_DEPENDENCY_UNAVAILABLE", "authentication is temporarily unavailable");
  };

  return async function verifySignature(request) {
    const requestId = createRequestId();
    let headers: Record<string, string> = { "X-Request-Id": requestId };

    // ORIGIN_FORBIDDEN: a browser origin must be allowed; server-to-server calls send no Origin.
    const origins = request.origin === undefined ? headerValues(request.headers, "origin") : [request.origin];
    const origin = origins[0];
    if (origin !== undefined) {
      if (origins.length > 1 || cors === undefined || !cors.allows(origin))
        return rejection(requestId, headers, "ORIGIN_FORBIDDEN", "origin is not allowed");
      headers = { ...headers, ...cors.responseHeaders(origin) };
    }

    // Paths exactly as given (the spec's conventions); "Errors and retries": no operation -> 404, not POST -> 405.
    const path = matchOperationPath(request.rawPath);
    if (path.kind === "unknown")
      return rejection(requestId, headers, "REQUEST_INVALID", "no operation at this path", 404);
    if (path.kind === "nonCanonical") {
      const expected = `${basePath}${pathOf(path.operationId)}`;
      return rejection(
        requestId,
        headers,
        "OPEN_API_UNAUTHORIZED",
        `the request path is not canonical: send exactly ${expected} (no query string, trailing slash, percent-encoding or other letter case)`,
      );
    }
    if (
      origin !== undefined &&
      cors !== undefined &&
      request.method === "OPTIONS" &&
      headerValues(request.headers, "access-control-request-method").length > 0
    ) {
      return {
        ok: false,
        status: 204,
        body: null,
        headers: { ...ANSWER_HEADERS, ...headers, ...cors.preflightHeaders(origin) },
      };
    }
    if (request.method !== "POST")
      return rejection(
        requestId,
        headers,
        "REQUEST_INVALID",
        "method not allowed: every operation is POST",
        405,
        METHOD_NOT_ALLOWED_HEADERS,
      );

    // "Signing requests": each signature header exactly once, and a well-formed nonce.
    const apiKey = singleHeader(request.headers, "x-api-key");
    if (typeof apiKey !== "string") return headerProblem(requestId, headers, "X-API-Key", apiKey);
    const timestamp = singleHeader(request.headers, "x-timestamp");
    if (typeof timestamp !== "string") return headerProblem(requestId, headers, "X-Timestamp", timestamp);
    const nonce = singleHeader(request.headers, "x-nonce");
    if (typeof nonce !== "string") return headerProblem(requestId, headers, "X-Nonce", nonce);
    const signature = singleHeader(request.headers, "x-signature");
    if (typeof signature !== "string") return headerProblem(requestId, headers, "X-Signature", signature);
    if (!isValidNonce(nonce))
      return rejection(requestId, headers, "REQUEST_INVALID", "X-Nonce must be 16-128 characters of A-Z a-z 0-9 _ -");

    // "Signing requests": a JSON body, not compressed; "Limits": within the size limit.
    const contentType = singleHeader(request.headers, "content-type");
    if (typeof contentType !== "string" || !isJsonContentType(contentType))
      return rejection(requestId, headers, "REQUEST_INVALID", "Content-Type must be application/json");
    if (!isIdentityEncoding(headerValues(request.headers, "content-encoding"))) {
      return rejection(
        requestId,
        headers,
        "REQUEST_INVALID",
        "Content-Encoding must be absent or identity: the body is not compressed",
      );
    }
    const body = typeof request.body === "function" ? await request.body(maxBodyBytes) : request.body;
    if (body === undefined || body.byteLength > maxBodyBytes)
      return rejection(requestId, headers, "REQUEST_INVALID", `the request body exceeds ${maxBodyBytes} bytes`);

    // "Signing requests": timestamp in seconds, within the skew window in both directions; a well-formed signature.
    if (!isUnixSeconds(timestamp))
      return rejection(
        requestId,
        headers,
        "OPEN_API_UNAUTHORIZED",
        "X-Timestamp must be Unix time in seconds as a decimal string (not milliseconds)",
      );
    const nowMs = now();
    if (Math.abs(Math.floor(nowMs / 1000) - Number(timestamp)) > clockSkewSeconds) {
      return rejection(
        requestId,
        headers,
        "OPEN_API_UNAUTHORIZED",
        `X-Timestamp is outside the accepted clock skew of ±${clockSkewSeconds} seconds`,
      );
    }
    if (!isWellFormedSignature(signature))
      return rejection(requestId, headers, "OPEN_API_UNAUTHORIZED", "X-Signature must be 64 lowercase hex characters");

    // The key, then the signature over the received path and body bytes (constant-time comparison).
    let key: ApiKeyRecord | undefined;
    try {
      key = await lookupKey(apiKey);
    } catch (error) {
      return unavailable(requestId, headers, error, "lookupKey");
    }
    // Unknown key and wrong signature read the same, so the answer does not tell which keys exist.
    if (key === undefined || key === null)
      return rejection(requestId, headers, "OPEN_API_UNAUTHORIZED", SIGNATURE_MISMATCH);
    if (
      typeof key.secret !== "string" ||
      key.secret === "" ||
      typeof key.merchantId !== "string" ||
      (key.status !== "ACTIVE" && key.status !== "SUSPENDED")
    ) {
      return unavailable(
        requestId,
        headers,
        new TypeError("lookupKey returned a record without a secret, merchantId or valid status"),
        "lookupKey",
      );
    }
    let canonical: string;
    try {
      // The path as received, which is exactly the operation path (after basePath): the client signs its real path.
      canonical = canonicalString({
        apiKey,
        method: "POST",
        path: request.rawPath,
        timestamp,
        nonce,
        bodyHash: await bodyHash(body),
      });
    } catch {
      return rejection(requestId, headers, "OPEN_API_UNAUTHORIZED", SIGNATURE_MISMATCH);
    }
    if (!(await verify(key.secret, canonical, signature)))
      return rejection(requestId, headers, "OPEN_API_UNAUTHORIZED", SIGNATURE_MISMATCH);

    if (key.status === "SUSPENDED")
      return rejection(requestId, headers, "TENANT_SUSPENDED", "the merchant is suspended");

    // OPEN_API_REPLAYED: consumed only now that the signature verified, atomically, kept twice the skew window.
    let firstUse: boolean;
    try {
      firstUse = await nonceStore.consume(apiKey, nonce, nowMs + nonceRetentionMs);
    } catch (error) {
      return unavailable(requestId, headers, error, "nonceStore");
    }
    if (firstUse !== true)
      return rejection(
        requestId,
        headers,
        "OPEN_API_REPLAYED",
        "nonce already used: sign every request, including retries, with a new nonce",
      );

    return { ok: true, merchantId: key.merchantId, apiKey, operationId: path.operationId, body, requestId, headers };
  };
}

const compiled = new WeakMap<SignedRequestOptions, VerifySignature>();

/**
 * Verifies a signed request (the spec's "Signing requests", "Errors and retries" and "Limits") without parsing its body. The options are validated on first use
 * and remembered for the same options object, so pass the same object every time.
 *
 * | Check | Answer |
 * |---|---|
 * | `Origin` present and not in `allowedOrigins` | 403 `ORIGIN_FORBIDDEN` |
 * | path is no operation / not POST | 404 / 405, code `REQUEST_INVALID` |
 * | operation path with query, trailing slash, encoding, other case, dot segments, double slashes | 401 `OPEN_API_UNAUTHORIZED` |
 * | signature header missing or repeated, malformed nonce, Content-Type not JSON, Content-Encoding, body over limit | 400 `REQUEST_INVALID` |
 * | timestamp not seconds or outside ±skew, malformed or wrong signature, unknown or revoked key | 401 `OPEN_API_UNAUTHORIZED` |
 * | merchant suspended | 403 `TENANT_SUSPENDED` |
 * | nonce used before | 409 `OPEN_API_REPLAYED` |
 * | `lookupKey` or the nonce store fails | 503 `AUTH_DEPENDENCY_UNAVAILABLE` |
 *
 * @example
 * const options = { lookupKey: (apiKey) => keys.find(apiKey), nonceStore: createMemoryNonceStore() };
 * const result = await verifySignedRequest({ method: "POST", rawPath: req.url, headers: req.headersDistinct, body }, options);
 * if (!result.ok) return send(result.status, result.headers, result.body);
 * result.merchantId; // the key's merchant
 */
export function verifySignedRequest(
  request: IncomingRequest,
  options: SignedRequestOptions,
): Promise<SignedRequest | RequestRejection> {
  let verify = compiled.get(options);
  if (verify === undefined) {
    verify = compileSignedRequestCheck(options);
    compiled.set(options, verify);
  }
  return verify(request);
}
