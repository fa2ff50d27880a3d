/**
 * The checks of a signed request that need no secret, in the order the verifier runs them: origin, path, method
 * (and a CORS preflight), the signature headers, content type and encoding, and the body's size. They come first so
 * that a malformed request costs neither a key lookup nor a nonce. Statuses come from the spec's error catalog,
 * except 404 and 405, which the spec's "Errors and retries" guide gives to routing (both with `REQUEST_INVALID`).
 */
import { operations, type OperationId } from "@org/webinar-types";
import { isValidNonce } from "@org/webinar-signing";
import { isJsonContentType } from "./content-type";
import { ANSWER_HEADERS } from "./error-envelope";
import { rejection, type AnswerBasis } from "./rejection";
import type { PathMatch } from "./request-path";
import { headerValues, singleHeader, type HeaderProblem } from "./request-headers";
import type { VerifierSettings } from "./verifier-settings";
import type { IncomingRequest, RequestRejection } from "./signed-request-types";

/** The four signature headers, each present exactly once. */
export interface SignatureHeaders {
  apiKey: string;
  timestamp: string;
  nonce: string;
  signature: string;
}

const METHOD_NOT_ALLOWED_HEADERS: Readonly<Record<string, string>> = Object.freeze({ Allow: "POST" });

function isIdentityEncoding(values: readonly string[]): boolean {
  return values.length === 0 || (values.length === 1 && values[0]!.trim().toLowerCase() === "identity");
}

/**
 * ORIGIN_FORBIDDEN: a browser origin must be allowed; server-to-server calls send no Origin. An allowed origin's
 * CORS headers are added to every later answer.
 */
export function checkOrigin(
  request: IncomingRequest,
  settings: VerifierSettings,
  answer: AnswerBasis,
): string | undefined | RequestRejection {
  const origins = request.origin === undefined ? headerValues(request.headers, "origin") : [request.origin];
  const origin = origins[0];
  if (origin === undefined) return undefined;
  const { cors } = settings;
  if (origins.length > 1 || cors === undefined || !cors.allows(origin))
    return rejection(answer, "ORIGIN_FORBIDDEN", "origin is not allowed");
  answer.headers = { ...answer.headers, ...cors.responseHeaders(origin) };
  return origin;
}

/**
 * The operation the path names, exactly as given: no operation is 404, a non-canonical form of one 401 (the client
 * signs the path it sends), a method other than POST 405. A CORS preflight of an allowed origin is answered 204.
 */
export function checkRoute(
  request: IncomingRequest,
  pathMatch: PathMatch,
  origin: string | undefined,
  settings: VerifierSettings,
  answer: AnswerBasis,
): OperationId | RequestRejection {
  if (pathMatch.kind === "unknown") return rejection(answer, "REQUEST_INVALID", "no operation at this path", 404);
  if (pathMatch.kind === "nonCanonical") {
    const expected = `${settings.basePath}${operations[pathMatch.operationId].path}`;
    return rejection(
      answer,
      "OPEN_API_UNAUTHORIZED",
      `the request path is not canonical: send exactly ${expected} (no query string, trailing slash, percent-encoding or other letter case)`,
    );
  }
  const { cors } = settings;
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
      headers: { ...ANSWER_HEADERS, ...answer.headers, ...cors.preflightHeaders(origin) },
    };
  }
  if (request.method !== "POST")
    return rejection(
      answer,
      "REQUEST_INVALID",
      "method not allowed: every operation is POST",
      405,
      METHOD_NOT_ALLOWED_HEADERS,
    );
  return pathMatch.operationId;
}

function headerProblem(answer: AnswerBasis, name: string, { problem }: HeaderProblem): RequestRejection {
  return rejection(answer, "REQUEST_INVALID", `${name} is ${problem}: each signature header must appear exactly once`);
}

/** Each signature header exactly once, and a well-formed nonce ("Signing requests"). */
export function readSignatureHeaders(
  request: IncomingRequest,
  answer: AnswerBasis,
): SignatureHeaders | RequestRejection {
  const apiKey = singleHeader(request.headers, "x-api-key");
  if (typeof apiKey !== "string") return headerProblem(answer, "X-API-Key", apiKey);
  const timestamp = singleHeader(request.headers, "x-timestamp");
  if (typeof timestamp !== "string") return headerProblem(answer, "X-Timestamp", timestamp);
  const nonce = singleHeader(request.headers, "x-nonce");
  if (typeof nonce !== "string") return headerProblem(answer, "X-Nonce", nonce);
  const signature = singleHeader(request.headers, "x-signature");
  if (typeof signature !== "string") return headerProblem(answer, "X-Signature", signature);
  if (!isValidNonce(nonce))
    return rejection(answer, "REQUEST_INVALID", "X-Nonce must be 16-128 characters of A-Z a-z 0-9 _ -");
  return { apiKey, timestamp, nonce, signature };
}

/** A JSON body, not compressed ("Signing requests"), within the size limit ("Limits"): its bytes. */
export async function readJsonBody(
  request: IncomingRequest,
  settings: VerifierSettings,
  answer: AnswerBasis,
): Promise<Uint8Array | RequestRejection> {
  const contentType = singleHeader(request.headers, "content-type");
  if (typeof contentType !== "string" || !isJsonContentType(contentType))
    return rejection(answer, "REQUEST_INVALID", "Content-Type must be application/json");
  if (!isIdentityEncoding(headerValues(request.headers, "content-encoding")))
    return rejection(
      answer,
      "REQUEST_INVALID",
      "Content-Encoding must be absent or identity: the body is not compressed",
    );
  const { maxBodyBytes } = settings;
  const body = typeof request.body === "function" ? await request.body(maxBodyBytes) : request.body;
  if (body === undefined || body.byteLength > maxBodyBytes)
    return rejection(answer, "REQUEST_INVALID", `the request body exceeds ${maxBodyBytes} bytes`);
  return body;
}
