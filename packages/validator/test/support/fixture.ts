/**
 * Keys, clock and signing helpers shared by the tests. The clock is injected into the verifier (never mocked
 * globally); keys cover every answer of `lookupKey`: active, suspended, unknown/revoked, and a failing lookup.
 */
import { createHash, createHmac, randomBytes } from "node:crypto";
import { canonicalString } from "@org/webinar-signing";
import {
  createMemoryNonceStore,
  type ApiKeyRecord,
  type NonceStore,
  type RequestVerifierOptions,
} from "../../src/index";

/** The fixed "now" of the tests: 2026-01-01T00:00:00Z plus 250 ms. */
export const NOW_SECONDS = 1767225600;
export const NOW_MS = NOW_SECONDS * 1000 + 250;
export const fixedClock = () => NOW_MS;

export const ACTIVE = {
  apiKey: "wk_test_active_7Qm2x9Lp",
  secret: "Vq7#tR2m!Lp9@xZ4&nB6^wK1",
  merchantId: "m_active",
} as const;
export const ACTIVE_OTHER_MERCHANT = {
  apiKey: "wk_test_other_3Hs9Qa2",
  secret: "other-merchant-secret-77",
  merchantId: "m_other",
} as const;
export const SUSPENDED = {
  apiKey: "wk_test_suspended_4Rt8",
  secret: "suspended-secret-9f86d081",
  merchantId: "m_suspended",
} as const;
/** A key the console revoked: `lookupKey` no longer knows it, while the client still holds its secret. */
export const REVOKED = { apiKey: "wk_test_revoked_Vb1N", secret: "revoked-secret-2c2d379a" } as const;
/** `lookupKey` throws for this key (the key store is down). */
export const LOOKUP_DOWN = { apiKey: "wk_test_lookup_down_x", secret: "whatever-secret" } as const;
/** The nonce store throws for nonces with this prefix (the store is down). */
export const STORE_DOWN_NONCE_PREFIX = "StoreDown";

export const ALLOWED_ORIGIN = "https://docs.example.com";
export const OTHER_ORIGIN = "https://evil.example";
/** Small enough that a test body can exceed it; the spec's default (1 MiB) is tested on the core. */
export const TEST_MAX_BODY_BYTES = 16 * 1024;

const keyTable = new Map<string, ApiKeyRecord>([
  [ACTIVE.apiKey, { secret: ACTIVE.secret, merchantId: ACTIVE.merchantId, status: "ACTIVE" }],
  [
    ACTIVE_OTHER_MERCHANT.apiKey,
    { secret: ACTIVE_OTHER_MERCHANT.secret, merchantId: ACTIVE_OTHER_MERCHANT.merchantId, status: "ACTIVE" },
  ],
  [SUSPENDED.apiKey, { secret: SUSPENDED.secret, merchantId: SUSPENDED.merchantId, status: "SUSPENDED" }],
]);

export async function lookupKey(apiKey: string): Promise<ApiKeyRecord | undefined> {
  if (apiKey === LOOKUP_DOWN.apiKey) throw new Error("key store unreachable");
  return keyTable.get(apiKey);
}

/** A memory nonce store on the fixed clock that fails for `STORE_DOWN_NONCE_PREFIX` nonces, counting consumptions. */
export function createTestNonceStore(): NonceStore & { consumed: string[] } {
  const store = createMemoryNonceStore({ maxEntries: 10_000, now: fixedClock });
  const consumed: string[] = [];
  return {
    consumed,
    async consume(apiKey, nonce, expiresAtMs) {
      if (nonce.startsWith(STORE_DOWN_NONCE_PREFIX)) throw new Error("nonce store unreachable");
      consumed.push(nonce);
      return store.consume(apiKey, nonce, expiresAtMs);
    },
  };
}

/** Fresh verifier options: fixed clock, test keys, a fresh nonce store, one allowed origin, a small body limit. */
export function createTestOptions(
  overrides: Partial<RequestVerifierOptions> = {},
): RequestVerifierOptions & { nonceStore: ReturnType<typeof createTestNonceStore> } {
  return {
    lookupKey,
    nonceStore: createTestNonceStore(),
    now: fixedClock,
    allowedOrigins: [ALLOWED_ORIGIN],
    limits: { maxBodyBytes: TEST_MAX_BODY_BYTES },
    ...overrides,
  } as RequestVerifierOptions & { nonceStore: ReturnType<typeof createTestNonceStore> };
}

/** 32 hex characters of 16 random bytes, the nonce form "Signing requests" recommends. */
export const freshNonce = () => randomBytes(16).toString("hex");

/** A request as sent on the wire: method, request target, header pairs (repeats allowed), body bytes. */
export interface WireRequest {
  method: string;
  path: string;
  headers: Array<[string, string]>;
  body: Uint8Array;
}

export interface SignOptions {
  path: string;
  body: string | Uint8Array;
  key?: { apiKey: string; secret: string };
  timestamp?: string;
  nonce?: string;
  /** The path put into the canonical string when it differs from the one sent (a client mistake). */
  signedPath?: string;
  /** The body hashed when it differs from the one sent (re-serialized after signing). */
  signedBody?: string | Uint8Array;
  contentType?: string | null;
  method?: string;
}

/**
 * Signs like a correct client, with node:crypto straight from the algorithm of "Signing requests" (SHA-256 of the
 * body, HMAC-SHA256 of the canonical string keyed with the secret's UTF-8 bytes), unless told to make one mistake.
 */
export function signedRequest(options: SignOptions): WireRequest {
  const { apiKey, secret } = options.key ?? ACTIVE;
  const body = typeof options.body === "string" ? new TextEncoder().encode(options.body) : options.body;
  const signedBody = options.signedBody === undefined ? body : options.signedBody;
  const timestamp = options.timestamp ?? String(NOW_SECONDS);
  const nonce = options.nonce ?? freshNonce();
  const bodyHash = createHash("sha256").update(signedBody).digest("hex");
  const canonical = canonicalString({ apiKey, path: options.signedPath ?? options.path, timestamp, nonce, bodyHash });
  const headers: Array<[string, string]> = [];
  if (options.contentType !== null) headers.push(["Content-Type", options.contentType ?? "application/json"]);
  headers.push(
    ["X-API-Key", apiKey],
    ["X-Timestamp", timestamp],
    ["X-Nonce", nonce],
    ["X-Signature", createHmac("sha256", secret).update(canonical).digest("hex")],
  );
  return { method: options.method ?? "POST", path: options.path, headers, body };
}

/** The request with every header named `name` removed. */
export const withoutHeader = (request: WireRequest, name: string): WireRequest => ({
  ...request,
  headers: request.headers.filter(([header]) => header.toLowerCase() !== name.toLowerCase()),
});

/** The request with `name` set to `value` (replacing it, or added when absent). */
export const withHeader = (request: WireRequest, name: string, value: string): WireRequest => ({
  ...withoutHeader(request, name),
  headers: [...withoutHeader(request, name).headers, [name, value]],
});

/** The request with a second `name` header (same value unless given). */
export function withRepeatedHeader(request: WireRequest, name: string, value?: string): WireRequest {
  const existing = request.headers.find(([header]) => header.toLowerCase() === name.toLowerCase());
  if (!existing) throw new Error(`no ${name} header to repeat`);
  return { ...request, headers: [...request.headers, [name.toLowerCase(), value ?? existing[1]]] };
}
