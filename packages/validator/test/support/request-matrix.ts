/**
 * The request matrix every runner (the core and each adapter in a real app) must answer identically: every rule of
 * the spec's "Signing requests", "Errors and retries" and "Limits" guides, and every request vector of
 * spec/test-vectors/requests. Each case names the rule it checks. A case is one or more requests sent in order (a
 * replay is two).
 */
import { readFileSync } from "node:fs";
import { isDeepStrictEqual } from "node:util";
import { operations, type ErrorCode, type OperationId } from "@org/webinar-types";
import { validateResponse } from "../../src/contract";
import {
  ACTIVE,
  ACTIVE_OTHER_MERCHANT,
  ALLOWED_ORIGIN,
  freshNonce,
  LOOKUP_DOWN,
  NOW_SECONDS,
  OTHER_ORIGIN,
  REVOKED,
  signedRequest,
  STORE_DOWN_NONCE_PREFIX,
  SUSPENDED,
  TEST_MAX_BODY_BYTES,
  withHeader,
  withoutHeader,
  withRepeatedHeader,
  type WireRequest,
} from "./fixture";

/** What a runner observed: status, lowercased headers, the parsed JSON body (undefined when there is none). */
export interface ObservedResponse {
  status: number;
  headers: Record<string, string>;
  json: unknown;
}

export interface Expectation {
  status: number;
  /** `error.code` of the envelope; omitted for 200 and 204. */
  code?: ErrorCode;
  /** For 200: the validated body the handler received. */
  body?: unknown;
  /** Response headers that must have these values (`undefined`: must be absent). */
  headers?: Record<string, string | undefined>;
  /** For 200: the merchant the handler was given; default the ACTIVE key's. */
  merchantId?: string;
  /**
   * The path is no operation: the verifier alone answers it 404 `REQUEST_INVALID`, while an adapter mounted in an
   * app hands it to the app (see {@link APP_NOT_FOUND}).
   */
  notAnOperation?: true;
}

/** What an app answers for a path it has no route for: its own 404, not the validator's envelope. */
export const APP_NOT_FOUND: Expectation = { status: 404 };

export interface MatrixCase {
  name: string;
  steps: Array<{ request: () => WireRequest; expect: Expectation }>;
}

const UPSERT = operations.upsertViewer.path;
const upsertBody = '{"externalUserId":"crm-000123","phone":"13800138000","displayName":"Alice Chen"}';
const upsertValue = { externalUserId: "crm-000123", phone: "13800138000", displayName: "Alice Chen" };
type SignOverrides = Partial<Parameters<typeof signedRequest>[0]>;
const valid = (overrides: SignOverrides = {}) => signedRequest({ path: UPSERT, body: upsertBody, ...overrides });
const OK: Expectation = { status: 200, body: upsertValue };

const one = (name: string, request: () => WireRequest, expect: Expectation): MatrixCase => ({
  name,
  steps: [{ request, expect }],
});
const fails = (status: number, code: ErrorCode, headers?: Expectation["headers"]): Expectation =>
  headers ? { status, code, headers } : { status, code };
const notAnOperation: Expectation = { ...fails(404, "REQUEST_INVALID"), notAnOperation: true };

/** Requests sent in order with one nonce (each runner has its own nonce store, so one nonce serves all). */
function sameNonce(name: string, ...steps: Array<[SignOverrides, Expectation]>): MatrixCase {
  const nonce = freshNonce();
  return {
    name,
    steps: steps.map(([overrides, expect]) => ({ request: () => valid({ ...overrides, nonce }), expect })),
  };
}

const SIGNATURE_HEADERS = ["X-API-Key", "X-Timestamp", "X-Nonce", "X-Signature"] as const;

const authCases: MatrixCase[] = [
  one(
    "Signing requests: a correctly signed request -> 200, the handler gets merchant, operation and validated body",
    () => valid(),
    OK,
  ),

  // Signing requests: headers
  ...SIGNATURE_HEADERS.map((name) =>
    one(
      `Signing requests: ${name} missing -> 400 REQUEST_INVALID`,
      () => withoutHeader(valid(), name),
      fails(400, "REQUEST_INVALID"),
    ),
  ),
  ...SIGNATURE_HEADERS.map((name) =>
    one(
      `Signing requests: ${name} sent twice with the same value -> 400 REQUEST_INVALID`,
      () => withRepeatedHeader(valid(), name),
      fails(400, "REQUEST_INVALID"),
    ),
  ),
  one(
    "Signing requests: X-Nonce sent twice with different values -> 400 REQUEST_INVALID",
    () => withRepeatedHeader(valid(), "X-Nonce", freshNonce()),
    fails(400, "REQUEST_INVALID"),
  ),
  one(
    "Signing requests: X-API-Key empty -> 400 REQUEST_INVALID",
    () => withHeader(valid(), "X-API-Key", ""),
    fails(400, "REQUEST_INVALID"),
  ),
  one(
    "Signing requests, Limits: X-Nonce of 15 characters -> 400 REQUEST_INVALID",
    () => valid({ nonce: "a".repeat(15) }),
    fails(400, "REQUEST_INVALID"),
  ),
  one(
    "Signing requests, Limits: X-Nonce of 129 characters -> 400 REQUEST_INVALID",
    () => valid({ nonce: "a".repeat(129) }),
    fails(400, "REQUEST_INVALID"),
  ),
  one(
    "Signing requests: X-Nonce with a character outside A-Z a-z 0-9 _ - -> 400 REQUEST_INVALID",
    () => valid({ nonce: `${freshNonce()}.x` }),
    fails(400, "REQUEST_INVALID"),
  ),
  one(
    "Signing requests, Limits: X-Nonce of 16 characters with _ and - -> 200",
    () => valid({ nonce: `N_-${freshNonce().slice(0, 13)}` }),
    OK,
  ),
  one("Signing requests, Limits: X-Nonce of 128 characters -> 200", () => valid({ nonce: freshNonce().repeat(4) }), OK),
  one(
    "Signing requests: Content-Type missing -> 400 REQUEST_INVALID",
    () => valid({ contentType: null }),
    fails(400, "REQUEST_INVALID"),
  ),
  one(
    "Signing requests: Content-Type text/plain -> 400 REQUEST_INVALID",
    () => valid({ contentType: "text/plain" }),
    fails(400, "REQUEST_INVALID"),
  ),
  one(
    "Signing requests: Content-Type form-urlencoded -> 400 REQUEST_INVALID",
    () => valid({ contentType: "application/x-www-form-urlencoded" }),
    fails(400, "REQUEST_INVALID"),
  ),
  one(
    "Signing requests: Content-Type application/json; charset=utf-8 -> 200",
    () => valid({ contentType: "application/json; charset=utf-8" }),
    OK,
  ),
  one(
    "Signing requests: Content-Type application/json;charset=UTF-8 -> 200",
    () => valid({ contentType: "application/json;charset=UTF-8" }),
    OK,
  ),
  one(
    "Signing requests: Content-Type application/json with another charset -> 400 REQUEST_INVALID",
    () => valid({ contentType: "application/json; charset=iso-8859-1" }),
    fails(400, "REQUEST_INVALID"),
  ),
  one(
    "Signing requests: Content-Type sent twice -> 400 REQUEST_INVALID",
    () => withRepeatedHeader(valid(), "Content-Type"),
    fails(400, "REQUEST_INVALID"),
  ),
  one(
    "Signing requests: Content-Encoding gzip (the body is not compressed) -> 400 REQUEST_INVALID",
    () => withHeader(valid(), "Content-Encoding", "gzip"),
    fails(400, "REQUEST_INVALID"),
  ),
  one(
    "Signing requests: Content-Encoding identity -> 200",
    () => withHeader(valid(), "Content-Encoding", "identity"),
    OK,
  ),

  // Signing requests: timestamp
  one(
    "Signing requests: X-Timestamp in milliseconds -> 401 OPEN_API_UNAUTHORIZED",
    () => valid({ timestamp: `${NOW_SECONDS}000` }),
    fails(401, "OPEN_API_UNAUTHORIZED"),
  ),
  one(
    "Signing requests: X-Timestamp with a fraction -> 401 OPEN_API_UNAUTHORIZED",
    () => valid({ timestamp: `${NOW_SECONDS}.0` }),
    fails(401, "OPEN_API_UNAUTHORIZED"),
  ),
  one(
    "Signing requests: X-Timestamp as an RFC 3339 date -> 401 OPEN_API_UNAUTHORIZED",
    () => valid({ timestamp: "2026-01-01T00:00:00Z" }),
    fails(401, "OPEN_API_UNAUTHORIZED"),
  ),
  one(
    "Signing requests, Limits: X-Timestamp 300 s in the past -> 200",
    () => valid({ timestamp: String(NOW_SECONDS - 300) }),
    OK,
  ),
  one(
    "Signing requests, Limits: X-Timestamp 301 s in the past -> 401 OPEN_API_UNAUTHORIZED",
    () => valid({ timestamp: String(NOW_SECONDS - 301) }),
    fails(401, "OPEN_API_UNAUTHORIZED"),
  ),
  one(
    "Signing requests, Limits: X-Timestamp 300 s in the future -> 200",
    () => valid({ timestamp: String(NOW_SECONDS + 300) }),
    OK,
  ),
  one(
    "Signing requests, Limits: X-Timestamp 301 s in the future -> 401 OPEN_API_UNAUTHORIZED",
    () => valid({ timestamp: String(NOW_SECONDS + 301) }),
    fails(401, "OPEN_API_UNAUTHORIZED"),
  ),

  // Signing requests: signature mistakes
  one(
    "Signing requests: X-Signature in uppercase hex -> 401 OPEN_API_UNAUTHORIZED",
    () => {
      const request = valid();
      return withHeader(
        request,
        "X-Signature",
        request.headers.find(([name]) => name === "X-Signature")![1].toUpperCase(),
      );
    },
    fails(401, "OPEN_API_UNAUTHORIZED"),
  ),
  one(
    "Signing requests: X-Signature in Base64 -> 401 OPEN_API_UNAUTHORIZED",
    () => {
      const request = valid();
      const hex = request.headers.find(([name]) => name === "X-Signature")![1];
      return withHeader(request, "X-Signature", Buffer.from(hex, "hex").toString("base64"));
    },
    fails(401, "OPEN_API_UNAUTHORIZED"),
  ),
  one(
    "Signing requests: signature of 64 zeros -> 401 OPEN_API_UNAUTHORIZED",
    () => withHeader(valid(), "X-Signature", "0".repeat(64)),
    fails(401, "OPEN_API_UNAUTHORIZED"),
  ),
  one(
    "Signing requests: JSON re-serialized after signing (other bytes sent) -> 401 OPEN_API_UNAUTHORIZED",
    () => valid({ signedBody: JSON.stringify(upsertValue, null, 2) }),
    fails(401, "OPEN_API_UNAUTHORIZED"),
  ),
  one(
    "Signing requests: the full URL signed instead of the path -> 401 OPEN_API_UNAUTHORIZED",
    () => valid({ signedPath: `http://127.0.0.1${UPSERT}` }),
    fails(401, "OPEN_API_UNAUTHORIZED"),
  ),
  one(
    "Signing requests: another operation's path signed -> 401 OPEN_API_UNAUTHORIZED",
    () => valid({ signedPath: operations.getWatchOverview.path }),
    fails(401, "OPEN_API_UNAUTHORIZED"),
  ),
  one(
    "Signing requests: signed with another secret -> 401 OPEN_API_UNAUTHORIZED",
    () => valid({ key: { apiKey: ACTIVE.apiKey, secret: `${ACTIVE.secret}x` } }),
    fails(401, "OPEN_API_UNAUTHORIZED"),
  ),

  // Signing requests: credentials
  one(
    "Signing requests: unknown API key -> 401 OPEN_API_UNAUTHORIZED",
    () => valid({ key: { apiKey: "wk_test_unknown_0000", secret: "x-secret" } }),
    fails(401, "OPEN_API_UNAUTHORIZED"),
  ),
  one(
    "Signing requests: revoked API key -> 401 OPEN_API_UNAUTHORIZED",
    () => valid({ key: REVOKED }),
    fails(401, "OPEN_API_UNAUTHORIZED"),
  ),
  one(
    "Signing requests: suspended merchant, correct signature -> 403 TENANT_SUSPENDED",
    () => valid({ key: SUSPENDED }),
    fails(403, "TENANT_SUSPENDED"),
  ),
  one(
    "Signing requests: suspended merchant, wrong signature -> 401 OPEN_API_UNAUTHORIZED (the signature is checked first)",
    () => valid({ key: { apiKey: SUSPENDED.apiKey, secret: "wrong-secret" } }),
    fails(401, "OPEN_API_UNAUTHORIZED"),
  ),
  sameNonce(
    "Signing requests: a used nonce -> 409 OPEN_API_REPLAYED (the same request sent twice)",
    [{}, OK],
    [{}, fails(409, "OPEN_API_REPLAYED")],
  ),
  sameNonce(
    "Signing requests: a nonce is consumed only after the signature verifies: a forged request does not burn it",
    [{ key: { apiKey: ACTIVE.apiKey, secret: "forged" } }, fails(401, "OPEN_API_UNAUTHORIZED")],
    [{}, OK],
  ),
  sameNonce(
    "Signing requests: a retry after a validation failure needs a new nonce -> 409 OPEN_API_REPLAYED",
    [{ body: '{"externalUserId":"crm-000123","phone":null}' }, fails(400, "REQUEST_INVALID")],
    [{}, fails(409, "OPEN_API_REPLAYED")],
  ),
  sameNonce(
    "Signing requests: nonces are per API key: another merchant may use the same nonce",
    [{}, OK],
    [{ key: ACTIVE_OTHER_MERCHANT }, { ...OK, merchantId: ACTIVE_OTHER_MERCHANT.merchantId }],
  ),

  // Conventions, Signing requests: path exactly as given
  ...[
    ["a trailing slash", `${UPSERT}/`],
    ["a query string", `${UPSERT}?debug=1`],
    ["an empty query string", `${UPSERT}?`],
    ["other letter case", UPSERT.toUpperCase()],
    ["one letter in another case", UPSERT.replace("upsert", "Upsert")],
    ["percent-encoding", UPSERT.replace("upsert", "%75psert")],
    ["an encoded slash", UPSERT.replace("viewers/upsert", "viewers%2Fupsert")],
    ["a dot segment", UPSERT.replace("/viewers", "/./viewers")],
    ["a dot-dot segment", UPSERT.replace("/viewers", "/x/../viewers")],
    ["a double slash", UPSERT.replace("/open/", "/open//")],
    ["a leading double slash", `/${UPSERT}`],
  ].map(([what, path]) =>
    one(
      `Conventions, Signing requests: operation path with ${what} (signed as sent) -> 401 OPEN_API_UNAUTHORIZED`,
      () => signedRequest({ path: path!, body: upsertBody }),
      fails(401, "OPEN_API_UNAUTHORIZED"),
    ),
  ),
  one(
    "Errors and retries: a path that is no operation -> 404 REQUEST_INVALID",
    () => signedRequest({ path: "/api/v1/open/viewers", body: upsertBody }),
    notAnOperation,
  ),
  one(
    "Errors and retries: another API version -> 404 REQUEST_INVALID",
    () => signedRequest({ path: UPSERT.replace("/v1/", "/v2/"), body: upsertBody }),
    notAnOperation,
  ),
  one(
    "Errors and retries: the root path -> 404 REQUEST_INVALID",
    () => signedRequest({ path: "/", body: upsertBody }),
    notAnOperation,
  ),
  one(
    "Errors and retries: GET on an operation -> 405 REQUEST_INVALID, Allow: POST",
    () => ({ method: "GET", path: UPSERT, headers: [], body: new Uint8Array() }),
    fails(405, "REQUEST_INVALID", { allow: "POST" }),
  ),
  one(
    "Errors and retries: PUT on an operation (signed) -> 405 REQUEST_INVALID",
    () => valid({ method: "PUT" }),
    fails(405, "REQUEST_INVALID", { allow: "POST" }),
  ),
  one(
    "Errors and retries: OPTIONS without Origin (not a preflight) -> 405 REQUEST_INVALID",
    () => ({ method: "OPTIONS", path: UPSERT, headers: [], body: new Uint8Array() }),
    fails(405, "REQUEST_INVALID"),
  ),

  // Signing requests: cross-origin
  one(
    "ORIGIN_FORBIDDEN: a browser call from an allowed origin -> 200 with Access-Control-Allow-Origin",
    () => withHeader(valid(), "Origin", ALLOWED_ORIGIN),
    {
      ...OK,
      headers: { "access-control-allow-origin": ALLOWED_ORIGIN, "access-control-expose-headers": "X-Request-Id" },
    },
  ),
  one(
    "ORIGIN_FORBIDDEN: a browser call from another origin -> 403 ORIGIN_FORBIDDEN",
    () => withHeader(valid(), "Origin", OTHER_ORIGIN),
    fails(403, "ORIGIN_FORBIDDEN", { "access-control-allow-origin": undefined }),
  ),
  one(
    "ORIGIN_FORBIDDEN: Origin null (sandboxed page) -> 403 ORIGIN_FORBIDDEN",
    () => withHeader(valid(), "Origin", "null"),
    fails(403, "ORIGIN_FORBIDDEN"),
  ),
  one(
    "ORIGIN_FORBIDDEN: an allowed origin's error answer is readable: bad signature -> 401 with Access-Control-Allow-Origin",
    () => withHeader(withHeader(valid(), "X-Signature", "0".repeat(64)), "Origin", ALLOWED_ORIGIN),
    fails(401, "OPEN_API_UNAUTHORIZED", { "access-control-allow-origin": ALLOWED_ORIGIN }),
  ),
  one(
    "ORIGIN_FORBIDDEN: preflight from an allowed origin -> 204 allowing POST and the five signature headers",
    () => ({
      method: "OPTIONS",
      path: UPSERT,
      headers: [
        ["Origin", ALLOWED_ORIGIN],
        ["Access-Control-Request-Method", "POST"],
        ["Access-Control-Request-Headers", "content-type,x-api-key,x-timestamp,x-nonce,x-signature"],
      ],
      body: new Uint8Array(),
    }),
    {
      status: 204,
      headers: {
        "access-control-allow-origin": ALLOWED_ORIGIN,
        "access-control-allow-methods": "POST",
        "access-control-allow-headers": "Content-Type, X-API-Key, X-Timestamp, X-Nonce, X-Signature",
        "access-control-allow-credentials": undefined,
      },
    },
  ),
  one(
    "ORIGIN_FORBIDDEN: preflight from another origin -> 403 ORIGIN_FORBIDDEN",
    () => ({
      method: "OPTIONS",
      path: UPSERT,
      headers: [
        ["Origin", OTHER_ORIGIN],
        ["Access-Control-Request-Method", "POST"],
      ],
      body: new Uint8Array(),
    }),
    fails(403, "ORIGIN_FORBIDDEN", { "access-control-allow-origin": undefined }),
  ),

  // Errors and retries: dependencies
  one(
    "Errors and retries: lookupKey fails -> 503 AUTH_DEPENDENCY_UNAVAILABLE (never 500 or 401)",
    () => valid({ key: LOOKUP_DOWN }),
    fails(503, "AUTH_DEPENDENCY_UNAVAILABLE"),
  ),
  one(
    "Errors and retries: the nonce store fails -> 503 AUTH_DEPENDENCY_UNAVAILABLE",
    () => valid({ nonce: `${STORE_DOWN_NONCE_PREFIX}${freshNonce()}` }),
    fails(503, "AUTH_DEPENDENCY_UNAVAILABLE"),
  ),

  // Errors and retries, Limits: body size
  one(
    `Errors and retries, Limits: body over the limit (${TEST_MAX_BODY_BYTES + 1} bytes) -> 400 REQUEST_INVALID`,
    () => valid({ body: `${upsertBody}${" ".repeat(TEST_MAX_BODY_BYTES + 1 - upsertBody.length)}` }),
    fails(400, "REQUEST_INVALID"),
  ),
  one(
    `Limits: body of exactly the limit (${TEST_MAX_BODY_BYTES} bytes, JSON white space) -> 200`,
    () => valid({ body: `${upsertBody}${" ".repeat(TEST_MAX_BODY_BYTES - upsertBody.length)}` }),
    OK,
  ),
];

interface RequestVector {
  description: string;
  body?: unknown;
  rawBody?: string;
  rawBodyHex?: string;
  valid: boolean;
  code: ErrorCode | null;
  pointer?: string;
  normalized?: unknown;
}

/** spec/test-vectors/requests/<operationId>.json */
export function loadRequestVectors(operationId: OperationId): RequestVector[] {
  const file = new URL(`../../../../spec/test-vectors/requests/${operationId}.json`, import.meta.url);
  return JSON.parse(readFileSync(file, "utf8")) as RequestVector[];
}

/** The raw body bytes a vector stands for. */
export function vectorBytes(vector: RequestVector): Uint8Array {
  if (vector.rawBodyHex !== undefined) return Buffer.from(vector.rawBodyHex, "hex");
  return new TextEncoder().encode(vector.rawBody ?? JSON.stringify(vector.body));
}

export const operationIds = Object.keys(operations) as OperationId[];

const vectorCases: MatrixCase[] = operationIds.flatMap((operationId) =>
  loadRequestVectors(operationId).map((vector) =>
    one(
      `${operationId}: ${vector.description}`,
      () => signedRequest({ path: operations[operationId].path, body: vectorBytes(vector) }),
      vector.valid ? { status: 200, body: vector.normalized ?? vector.body } : fails(400, vector.code!),
    ),
  ),
);

/** Every case of the matrix. */
export const requestMatrix: readonly MatrixCase[] = [...authCases, ...vectorCases];

/** Headers of every answer the validator writes itself (a rejection, a preflight). */
const VALIDATOR_ANSWER_HEADERS = { "cache-control": "no-store", "x-content-type-options": "nosniff" } as const;

/** The observed answer against the expectation; returns a list of mismatches (empty when it matches). */
export function mismatches(observed: ObservedResponse, expected: Expectation, operationId?: OperationId): string[] {
  const problems: string[] = [];
  const json = observed.json as
    | {
        requestId?: string;
        error?: { code?: string; message?: unknown };
        data?: { merchantId?: string; body?: unknown; operationId?: string };
      }
    | undefined;
  if (observed.status !== expected.status)
    problems.push(`status ${observed.status}, expected ${expected.status} (${JSON.stringify(json?.error ?? null)})`);
  if (expected === APP_NOT_FOUND) {
    // The app's own answer: the validator neither answered nor read the request.
    if (observed.headers["x-request-id"] !== undefined)
      problems.push("the validator answered a path that is no operation instead of the app");
    return problems;
  }
  if (expected.status !== 200) {
    for (const [name, value] of Object.entries(VALIDATOR_ANSWER_HEADERS)) {
      if (observed.headers[name] !== value)
        problems.push(
          `header ${name}: ${String(observed.headers[name])}, expected ${value} on every answer of the validator`,
        );
    }
  }
  const requestId = observed.headers["x-request-id"];
  if (!requestId) problems.push("no X-Request-Id header");
  if (expected.status !== 204) {
    if (json?.requestId !== requestId)
      problems.push(`envelope requestId ${String(json?.requestId)} differs from X-Request-Id ${requestId}`);
  }
  if (expected.code !== undefined) {
    if (json?.error?.code !== expected.code)
      problems.push(`error.code ${String(json?.error?.code)}, expected ${expected.code}`);
    if (typeof json?.error?.message !== "string") problems.push("error.message is not a string");
  }
  if (expected.status === 200) {
    const merchantId = expected.merchantId ?? ACTIVE.merchantId;
    if (json?.data?.merchantId !== merchantId)
      problems.push(`merchantId ${String(json?.data?.merchantId)}, expected ${merchantId}`);
    if (operationId !== undefined && json?.data?.operationId !== operationId)
      problems.push(`operationId ${String(json?.data?.operationId)}`);
    if (expected.body !== undefined && !isDeepStrictEqual(json?.data?.body, expected.body)) {
      problems.push(
        `handler body ${JSON.stringify(json?.data?.body)?.slice(0, 200)}, expected ${JSON.stringify(expected.body).slice(0, 200)}`,
      );
    }
  }
  // Every error answer of an operation is one the spec documents for it (status, envelope, x-error-codes).
  if (
    operationId !== undefined &&
    observed.status >= 400 &&
    String(observed.status) in operations[operationId].errors
  ) {
    const contract = validateResponse(operationId, observed.status, json);
    if (!contract.valid)
      problems.push(`answer breaks the spec's ${observed.status} response: ${JSON.stringify(contract.errors)}`);
  }
  for (const [name, value] of Object.entries(expected.headers ?? {})) {
    if (observed.headers[name] !== value)
      problems.push(`header ${name}: ${String(observed.headers[name])}, expected ${String(value)}`);
  }
  return problems;
}

/** The operation a wire request targets when its path is canonical (for checking the handler's operationId). */
export function operationOf(path: string): OperationId | undefined {
  return operationIds.find((operationId) => operations[operationId].path === path);
}
