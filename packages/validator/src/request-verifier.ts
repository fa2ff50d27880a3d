/**
 * The whole pipeline every adapter runs: verify the signed request (the spec's "Signing requests"), then parse and
 * validate its body against the operation's request schema. One object per server, created once; an adapter only
 * hands it the request (a Web `Request`, or the parts of a Node request) and writes the answer.
 */
import type { OperationId, RequestBody } from "@org/webinar-types";
import { ERROR_RESPONSE_HEADERS, errorEnvelope, statusOf } from "./error-envelope";
import { parseAndValidate } from "./parse-and-validate";
import type { PathMatch } from "./request-path";
import { resolveVerifierSettings, type VerifierSettings } from "./verifier-settings";
import type {
  AuthenticatedRequest,
  IncomingRequest,
  RequestRejection,
  SignedRequestOptions,
} from "./signed-request-types";
import { checkSignedRequest } from "./verify-signed-request";
import { incomingWebRequest } from "./web-request";

/** A verified request of one operation, its body parsed, validated and trimmed. */
export interface VerifiedRequestOf<Op extends OperationId> {
  ok: true;
  /** The merchant of the API key; every query of the handler is scoped to it. */
  merchantId: string;
  apiKey: string;
  operationId: Op;
  /** The request body, valid for the operation, trimmed as `upsertViewer` describes. */
  body: RequestBody<Op>;
  /** The body bytes exactly as received and signed. */
  rawBody: Uint8Array;
  /** Quote it in the answer's envelope (`{ requestId, data }`); it is already in `headers`. */
  requestId: string;
  /** Headers the success answer must carry: `X-Request-Id`, and CORS headers for an allowed browser origin. */
  headers: Record<string, string>;
}

/**
 * A verified request; narrowing on `operationId` narrows `body`.
 *
 * @example
 * switch (request.operationId) {
 *   case "upsertViewer": return upsertViewer(request.merchantId, request.body); // body: UpsertViewerRequest
 *   case "issueLoginTicket": return issueTicket(request.merchantId, request.body.uid, request.body.ticketCode);
 * }
 */
export type VerifiedRequest = { [Op in OperationId]: VerifiedRequestOf<Op> }[OperationId];

/** Options of {@link createRequestVerifier}: those of the signature check. */
export type RequestVerifierOptions = SignedRequestOptions;

/** How a Web `Request` reached the server. */
export interface VerifyInit {
  /**
   * The request target exactly as received (path and query), when the server exposes it. A `Request`'s URL is
   * already parsed: dot segments are resolved and a `//` may be gone, so a non-canonical path can look canonical.
   * Default: path and query of `request.url`.
   */
  rawPath?: string | undefined;
  /** The id the server already gave the request (its access log's); every answer then carries it. */
  requestId?: string | undefined;
  /** `verifier.matchPath(rawPath)`, when the caller already classified the path to decide whether to verify. */
  pathMatch?: PathMatch | undefined;
}

/** The verification pipeline; see {@link createRequestVerifier}. */
export interface RequestVerifier {
  /**
   * Verifies the signature, then parses and validates the body: the verified request, or the answer to send
   * instead (`ok: false`: status, headers and error envelope, or a CORS preflight's 204). Never throws and never
   * rejects: a body that cannot be read is answered 500 `INTERNAL_ERROR` and reported to `onError`.
   */
  verify(request: Request, init?: VerifyInit): Promise<VerifiedRequest | RequestRejection>;
  /** The same for a request already taken apart, as the Node adapters hand it over. */
  verify(request: IncomingRequest): Promise<VerifiedRequest | RequestRejection>;
  /**
   * How a request target relates to the four operations: one of them exactly (`kind: "operation"`), a
   * non-canonical form of one (other letter case, trailing slash, query string, encoding, dot segments), or none
   * (`kind: "unknown"`). The adapters verify the first two and hand every other request to the app, passing the
   * match on to `verify` so the path is classified once.
   */
  matchPath(rawPath: string): PathMatch;
  /** Whether `matchPath(rawPath)` names an operation, exactly or in a non-canonical form. */
  handlesPath(rawPath: string): boolean;
  /** The options it was created with. */
  readonly options: Readonly<RequestVerifierOptions>;
}

/**
 * A body reader's failure whose message is written for the developer who mounted the adapter (for example, a body
 * parser consumed the body first): it becomes the message of the 500 answer, where any other failure says only
 * "unexpected server error".
 * @internal
 */
export class AdapterMountError extends Error {
  override readonly name = "AdapterMountError";
}

/**
 * Creates the pipeline once per server: options are validated here (a bad limit or origin throws now, not on the
 * first request).
 *
 * @example
 * const verifier = createRequestVerifier({
 *   lookupKey: async (apiKey) => db.apiKeys.find(apiKey), // { secret, merchantId, status } | undefined
 *   nonceStore: createMemoryNonceStore(),
 *   allowedOrigins: ["https://docs.example.com"],
 * });
 *
 * // A Worker, Deno.serve, Bun.serve or a Next.js route handler:
 * const result = await verifier.verify(request);
 * if (!result.ok) return rejectionResponse(result);
 * return Response.json({ requestId: result.requestId, data: await handle(result) }, { headers: result.headers });
 */
export function createRequestVerifier(options: RequestVerifierOptions): RequestVerifier {
  const settings = resolveVerifierSettings(options);
  const { matchPath } = settings;
  return {
    options,
    matchPath,
    handlesPath: (rawPath) => matchPath(rawPath).kind !== "unknown",
    verify: (request: Request | IncomingRequest, init?: VerifyInit) =>
      checkSignedRequest(toIncoming(request, init), settings).then(parseVerifiedBody, (error: unknown) =>
        adapterFailure(settings, error, request, init),
      ),
  };
}

function isIncomingRequest(request: Request | IncomingRequest): request is IncomingRequest {
  return typeof (request as IncomingRequest).rawPath === "string";
}

function toIncoming(request: Request | IncomingRequest, init: VerifyInit = {}): IncomingRequest {
  if (isIncomingRequest(request)) return request;
  const incoming = incomingWebRequest(request, init.rawPath);
  if (init.requestId !== undefined) incoming.requestId = init.requestId;
  if (init.pathMatch !== undefined) incoming.pathMatch = init.pathMatch;
  return incoming;
}

/** The second half of the pipeline: parses and validates the body of a request whose signature verified. */
function parseVerifiedBody(signed: AuthenticatedRequest | RequestRejection): VerifiedRequest | RequestRejection {
  if (!signed.ok) return signed;
  const parsed = parseAndValidate(signed.operationId, signed.body);
  if (!parsed.ok) {
    const { code, message, details } = parsed.error;
    return {
      ok: false,
      status: parsed.status,
      body: errorEnvelope(signed.requestId, code, message, details),
      headers: { ...ERROR_RESPONSE_HEADERS, ...signed.headers },
    };
  }
  const { merchantId, apiKey, operationId, requestId, headers } = signed;
  return {
    ok: true,
    merchantId,
    apiKey,
    operationId,
    body: parsed.value,
    rawBody: signed.body,
    requestId,
    headers,
  } as VerifiedRequest;
}

/**
 * The answer when the request could not be read (the client went away mid-body, a body parser consumed it first):
 * 500 `INTERNAL_ERROR`, reported to `onError`. Only an {@link AdapterMountError}'s text reaches the client.
 */
function adapterFailure(
  settings: VerifierSettings,
  error: unknown,
  request: Request | IncomingRequest,
  init: VerifyInit | undefined,
): RequestRejection {
  settings.onError?.(error, "adapter");
  const given = isIncomingRequest(request) ? request.requestId : init?.requestId;
  const requestId = given ?? settings.createRequestId();
  const message = error instanceof AdapterMountError ? error.message : "unexpected server error";
  return {
    ok: false,
    status: statusOf("INTERNAL_ERROR"),
    body: errorEnvelope(requestId, "INTERNAL_ERROR", message),
    headers: { ...ERROR_RESPONSE_HEADERS, "X-Request-Id": requestId },
  };
}

/**
 * Throws unless `value` is a verifier from {@link createRequestVerifier}: adapters take the verifier, not its
 * options, so one nonce store and one set of validated options serve every request.
 * @internal
 */
export function assertRequestVerifier(value: unknown, adapter: string): asserts value is RequestVerifier {
  const candidate = value as Partial<RequestVerifier> | undefined;
  if (typeof candidate?.verify !== "function" || typeof candidate.matchPath !== "function") {
    throw new TypeError(
      `${adapter} expects the verifier of createRequestVerifier({ lookupKey, nonceStore }), got ${value === null ? "null" : typeof value}`,
    );
  }
}
