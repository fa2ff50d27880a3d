/**
 * The whole pipeline every adapter runs: verify the signed request (spec §5), then parse and validate its body
 * (§4). One object per server, created once; the adapters only translate their framework's request into an
 * {@link IncomingRequest} and write the answer.
 */
import type { OperationId, RequestBody } from "@org/webinar-types";
import { defaultRequestId, ERROR_RESPONSE_HEADERS, errorEnvelope, statusOf } from "./error-envelope";
import { parseAndValidate } from "./parse-and-validate";
import {
  compileSignedRequestCheck,
  type IncomingRequest,
  type RequestRejection,
  type SignedRequest,
  type SignedRequestOptions,
} from "./verify-signed-request";

/** A verified request of one operation, its body parsed, validated and trimmed. */
export interface VerifiedRequestOf<Op extends OperationId> {
  ok: true;
  /** The merchant of the API key; every query of the handler is scoped to it. */
  merchantId: string;
  apiKey: string;
  operationId: Op;
  /** The request body, valid for the operation, trimmed as spec §4.3 says. */
  body: RequestBody<Op>;
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

/** The verification pipeline; see {@link createRequestVerifier}. */
export interface RequestVerifier {
  /** Verifies the signature, then parses and validates the body. Never throws for a bad request. */
  verify(request: IncomingRequest): Promise<VerifiedRequest | RequestRejection>;
  /** The options it was created with (adapters report their own failures to `onError`). */
  readonly options: Readonly<RequestVerifierOptions>;
}

/**
 * Creates the pipeline once per server: options are validated here (a bad limit or origin throws now, not on the
 * first request). `verify` answers a rejection (status, headers, envelope) or the verified request.
 *
 * @example
 * const verifier = createRequestVerifier({
 *   lookupKey: async (apiKey) => db.apiKeys.find(apiKey), // { secret, merchantId, status } | undefined
 *   nonceStore: createMemoryNonceStore({ maxEntries: 100_000 }),
 *   allowedOrigins: ["https://docs.example.com"],
 * });
 * const result = await verifier.verify({ method: req.method, rawPath: req.url, headers: req.headersDistinct, body });
 * if (!result.ok) return reply(result.status, result.headers, result.body);
 */
export function createRequestVerifier(options: RequestVerifierOptions): RequestVerifier {
  const verifySignature = compileSignedRequestCheck(options);
  return {
    options,
    // A `then` rather than an async function awaiting the check: one promise fewer on the path of every request.
    verify: (request) => verifySignature(request).then(parseVerifiedBody),
  };
}

/** The second half of the pipeline: parses and validates the body of a request whose signature verified. */
function parseVerifiedBody(signed: SignedRequest | RequestRejection): VerifiedRequest | RequestRejection {
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
  return { ok: true, merchantId, apiKey, operationId, body: parsed.value, requestId, headers } as VerifiedRequest;
}

const verifiers = new WeakMap<RequestVerifierOptions, RequestVerifier>();

/**
 * The verifier for an adapter argument: a verifier as is, or options turned into one once (remembered for the
 * same options object, so the nonce store and validated options are shared across requests).
 * @internal
 */
export function toRequestVerifier(verifierOrOptions: RequestVerifier | RequestVerifierOptions): RequestVerifier {
  if (typeof (verifierOrOptions as RequestVerifier).verify === "function") return verifierOrOptions as RequestVerifier;
  const options = verifierOrOptions as RequestVerifierOptions;
  let verifier = verifiers.get(options);
  if (verifier === undefined) {
    verifier = createRequestVerifier(options);
    verifiers.set(options, verifier);
  }
  return verifier;
}

/**
 * The answer when an adapter itself fails (a body stream error, a body parser that consumed the body first):
 * 500 `INTERNAL_ERROR`, reported to `onError`; the error's text never reaches the client.
 * @internal
 */
export function adapterFailure(verifier: RequestVerifier, error: unknown): RequestRejection {
  verifier.options.onError?.(error, "adapter");
  const requestId = (verifier.options.createRequestId ?? defaultRequestId)();
  return {
    ok: false,
    status: statusOf("INTERNAL_ERROR"),
    body: errorEnvelope(requestId, "INTERNAL_ERROR", "unexpected server error"),
    headers: { ...ERROR_RESPONSE_HEADERS, "X-Request-Id": requestId },
  };
}
