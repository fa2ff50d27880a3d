/**
 * The signed-request check of the spec's "Signing requests" guide, framework-neutral: origin, path, method,
 * signature headers, content type and encoding, body size (check-request-form.ts), then timestamp, key,
 * signature, merchant status and nonce (check-credentials.ts), in that order. Every answer carries a request id.
 */
import { authenticate, checkTimestamp, consumeNonce } from "./check-credentials";
import { checkOrigin, checkRoute, readJsonBody, readSignatureHeaders } from "./check-request-form";
import { isRejection, type AnswerBasis } from "./rejection";
import type {
  AuthenticatedRequest,
  IncomingRequest,
  RequestRejection,
  SignedRequestOptions,
} from "./signed-request-types";
import { resolveVerifierSettings, type VerifierSettings } from "./verifier-settings";

type VerifySignature = (request: IncomingRequest) => Promise<AuthenticatedRequest | RequestRejection>;

/**
 * Runs the checks in order; the first that fails is the answer.
 * @internal
 */
export async function checkSignedRequest(
  request: IncomingRequest,
  settings: VerifierSettings,
): Promise<AuthenticatedRequest | RequestRejection> {
  const answer: AnswerBasis = { requestId: request.requestId ?? settings.createRequestId(), headers: {} };
  answer.headers["X-Request-Id"] = answer.requestId;
  const origin = checkOrigin(request, settings, answer);
  if (isRejection(origin)) return origin;
  const operationId = checkRoute(
    request,
    request.pathMatch ?? settings.matchPath(request.rawPath),
    origin,
    settings,
    answer,
  );
  if (isRejection(operationId)) return operationId;
  const headers = readSignatureHeaders(request, answer);
  if (isRejection(headers)) return headers;
  const body = await readJsonBody(request, settings, answer);
  if (isRejection(body)) return body;
  const nowMs = checkTimestamp(headers, settings, answer);
  if (isRejection(nowMs)) return nowMs;
  const key = await authenticate(headers, request.rawPath, body, settings, answer);
  if (isRejection(key)) return key;
  const replayed = await consumeNonce(headers, nowMs, settings, answer);
  if (replayed !== undefined) return replayed;
  const { requestId } = answer;
  return {
    ok: true,
    merchantId: key.merchantId,
    apiKey: headers.apiKey,
    operationId,
    body,
    requestId,
    headers: answer.headers,
  };
}

/**
 * Validates the options once and returns the check. `createRequestVerifier` and the adapters build on it.
 * @internal
 */
export function compileSignedRequestCheck(options: SignedRequestOptions): VerifySignature {
  const settings = resolveVerifierSettings(options);
  return (request) => checkSignedRequest(request, settings);
}

// Module-level and weak: settings derived from an options object are kept as long as the caller keeps that object.
const compiled = new WeakMap<SignedRequestOptions, VerifySignature>();

/**
 * Verifies a signed request (the spec's "Signing requests", "Errors and retries" and "Limits") without parsing its
 * body. The options are validated on first use and remembered for the same options object, so pass the same object
 * every time.
 *
 * | Check | Answer |
 * |---|---|
 * | `Origin` present and not in `allowedOrigins` | 403 `ORIGIN_FORBIDDEN` |
 * | path is no operation / not POST | 404 / 405, code `REQUEST_INVALID` |
 * | operation path with query, trailing slash, encoding, other case, dot segments | 401 `OPEN_API_UNAUTHORIZED` |
 * | a signature header missing or repeated, bad nonce, not JSON, compressed, too large | 400 `REQUEST_INVALID` |
 * | timestamp not seconds or outside ±skew, bad signature, unknown or revoked key | 401 `OPEN_API_UNAUTHORIZED` |
 * | merchant suspended | 403 `TENANT_SUSPENDED` |
 * | nonce used before | 409 `OPEN_API_REPLAYED` |
 * | `lookupKey` or the nonce store fails | 503 `AUTH_DEPENDENCY_UNAVAILABLE` |
 *
 * @example
 * const options = { lookupKey: (apiKey) => keys.find(apiKey), nonceStore: createMemoryNonceStore() };
 * const request = { method: "POST", rawPath: req.url, headers: req.headersDistinct, body };
 * const result = await verifySignedRequest(request, options);
 * if (!result.ok) return send(result.status, result.headers, result.body);
 * result.merchantId; // the key's merchant
 */
export function verifySignedRequest(
  request: IncomingRequest,
  options: SignedRequestOptions,
): Promise<AuthenticatedRequest | RequestRejection> {
  let verify = compiled.get(options);
  if (verify === undefined) {
    verify = compileSignedRequestCheck(options);
    compiled.set(options, verify);
  }
  return verify(request);
}
