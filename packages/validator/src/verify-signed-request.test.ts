import { createSigner, type Signer } from "@org/webinar-signing";
import { limits, operations } from "@org/webinar-types";
import { describe, expect, it, vi } from "vitest";
import {
  ACTIVE,
  createTestOptions,
  fixedClock,
  lookupKey,
  NOW_SECONDS,
  signedRequest,
  SUSPENDED,
  withHeader,
  type WireRequest,
} from "../test/support/fixture";
import { createMemoryNonceStore } from "./nonce-store";
import { createRequestVerifier } from "./request-verifier";
import type { ApiKeyRecord, AuthenticatedRequest, IncomingRequest, SignedRequest, SignedRequestOptions } from "./index";
import { verifySignedRequest } from "./verify-signed-request";
import { signingVectors as signing, type PositiveVector } from "@org/webinar-spec/test-vectors/signing-vectors";

const UPSERT = operations.upsertViewer.path;
const incoming = (wire: WireRequest): IncomingRequest => ({
  method: wire.method,
  rawPath: wire.path,
  headers: wire.headers,
  body: wire.body,
});
const utf8 = (text: string) => new TextEncoder().encode(text);

/** How `lookupKey` hands over the key: its secret alone, or with a signer prepared from it once. */
type KeyForm = "the secret" | "a prepared signer";

function vectorKey(vector: PositiveVector, form: KeyForm): ApiKeyRecord {
  const record: ApiKeyRecord = { secret: vector.secret, merchantId: "m_vector", status: "ACTIVE" };
  if (form === "a prepared signer") record.signer = createSigner(vector.secret);
  return record;
}

/**
 * Options whose key store knows exactly one vector's key, on a clock fixed at the vector's timestamp, for a
 * deployment under the vector's base path (one vector is served behind a `/webinar` prefix).
 */
function vectorOptions(vector: PositiveVector, form: KeyForm = "the secret"): SignedRequestOptions {
  const record = vectorKey(vector, form);
  return {
    basePath: vector.path.slice(0, vector.path.indexOf("/api/v1/")),
    lookupKey: async (apiKey) => (apiKey === vector.apiKey ? record : undefined),
    nonceStore: createMemoryNonceStore(),
    now: () => Number(vector.timestamp) * 1000,
  };
}

const vectorRequest = (vector: PositiveVector, signature: string): IncomingRequest => ({
  method: "POST",
  rawPath: vector.path,
  headers: {
    "content-type": ["application/json"],
    "x-api-key": [vector.apiKey],
    "x-timestamp": [vector.timestamp],
    "x-nonce": [vector.nonce],
    "x-signature": [signature],
  },
  body: utf8(vector.body),
});

const KEY_FORMS: KeyForm[] = ["the secret", "a prepared signer"];

describe.each(KEY_FORMS)(
  "verifySignedRequest against spec/test-vectors/signing.json (openssl-made), lookupKey giving %s",
  (form) => {
    it.each(signing.positive)("Signing requests: accepts positive vector: $name", async (vector) => {
      const result = await verifySignedRequest(vectorRequest(vector, vector.signature), vectorOptions(vector, form));
      expect(result).toMatchObject({
        ok: true,
        merchantId: "m_vector",
        apiKey: vector.apiKey,
        operationId: Object.entries(operations).find(([, op]) => vector.path.endsWith(op.path))![0],
      });
      if (result.ok) expect(new TextDecoder().decode(result.body)).toBe(vector.body);
    });

    it.each(signing.negative)(
      "Signing requests: rejects the mistake of negative vector with 401, accepts the correct signature: $name",
      async (vector) => {
        const options = vectorOptions(vector, form);
        const mistaken = await verifySignedRequest(vectorRequest(vector, vector.signature), options);
        expect(mistaken).toMatchObject({ ok: false, status: 401, body: { error: { code: "OPEN_API_UNAUTHORIZED" } } });
        const correct = await verifySignedRequest(vectorRequest(vector, vector.expectedSignature), options);
        expect(correct.ok).toBe(true);
      },
    );

    it("Signing requests: every positive vector goes through the whole pipeline: valid bodies -> verified, invalid -> 400 after verification", async () => {
      for (const vector of signing.positive) {
        const result = await createRequestVerifier(vectorOptions(vector, form)).verify(
          vectorRequest(vector, vector.signature),
        );
        if (vector.body === "{}")
          expect(result, vector.name).toMatchObject({
            ok: false,
            status: 400,
            body: { error: { code: "REQUEST_INVALID" } },
          });
        else expect(result.ok, vector.name).toBe(true);
      }
    });

    it("Signing requests: a wrong signature -> 401 OPEN_API_UNAUTHORIZED, a signature of the right shape included", async () => {
      const [vector] = signing.positive;
      const options = vectorOptions(vector!, form);
      const flipped = `${vector!.signature.slice(0, -1)}${vector!.signature.endsWith("0") ? "1" : "0"}`;
      for (const signature of [flipped, "0".repeat(64), vector!.signature.toUpperCase()])
        expect(await verifySignedRequest(vectorRequest(vector!, signature), options), signature).toMatchObject({
          ok: false,
          status: 401,
          body: { error: { code: "OPEN_API_UNAUTHORIZED" } },
        });
    });
  },
);

describe("verifySignedRequest: order of checks and what each costs", () => {
  const spied = () => {
    const options = createTestOptions({ lookupKey: vi.fn(lookupKey) });
    const consume = vi.spyOn(options.nonceStore, "consume");
    return { options, lookup: options.lookupKey as ReturnType<typeof vi.fn>, consume };
  };

  it.each([
    {
      rule: "Signing requests: a missing header",
      wire: () => ({ ...signedRequest({ path: UPSERT, body: "{}" }), headers: [] }),
      status: 400,
    },
    {
      rule: "Signing requests: timestamp in milliseconds",
      wire: () => signedRequest({ path: UPSERT, body: "{}", timestamp: `${NOW_SECONDS}000` }),
      status: 401,
    },
    {
      rule: "Signing requests: timestamp out of the skew window",
      wire: () => signedRequest({ path: UPSERT, body: "{}", timestamp: String(NOW_SECONDS - 3600) }),
      status: 401,
    },
    {
      rule: "Signing requests: malformed signature",
      wire: () => withHeader(signedRequest({ path: UPSERT, body: "{}" }), "X-Signature", "A".repeat(64)),
      status: 401,
    },
    {
      rule: "Conventions: non-canonical path",
      wire: () => signedRequest({ path: `${UPSERT}/`, body: "{}" }),
      status: 401,
    },
  ])("$rule is rejected ($status) without a key lookup or a nonce", async ({ wire, status }) => {
    const { options, lookup, consume } = spied();
    const result = await verifySignedRequest(incoming(wire()), options);
    expect(result).toMatchObject({ ok: false, status });
    expect(lookup).not.toHaveBeenCalled();
    expect(consume).not.toHaveBeenCalled();
  });

  it("Signing requests: a wrong signature costs a key lookup but no nonce", async () => {
    const { options, lookup, consume } = spied();
    const result = await verifySignedRequest(
      incoming(signedRequest({ path: UPSERT, body: "{}", key: { apiKey: ACTIVE.apiKey, secret: "nope" } })),
      options,
    );
    expect(result).toMatchObject({ ok: false, status: 401 });
    expect(lookup).toHaveBeenCalledOnce();
    expect(consume).not.toHaveBeenCalled();
  });

  it("Signing requests: a suspended merchant's request consumes no nonce", async () => {
    const { options, consume } = spied();
    expect(
      await verifySignedRequest(incoming(signedRequest({ path: UPSERT, body: "{}", key: SUSPENDED })), options),
    ).toMatchObject({ status: 403 });
    expect(consume).not.toHaveBeenCalled();
  });

  it(`Signing requests, Limits: the nonce is kept twice the skew window: expiresAt = now + 2 × ${limits.clockSkewSeconds} s`, async () => {
    const { options, consume } = spied();
    const wire = signedRequest({ path: UPSERT, body: "{}" });
    const result = await verifySignedRequest(incoming(wire), options);
    // The public entry names a verified request AuthenticatedRequest; SignedRequest stays its deprecated alias.
    const verified: AuthenticatedRequest | undefined = result.ok ? result : undefined;
    const aliased: SignedRequest | undefined = verified;
    expect(aliased?.ok).toBe(true);
    const nonce = wire.headers.find(([name]) => name === "X-Nonce")![1];
    expect(consume).toHaveBeenCalledWith(ACTIVE.apiKey, nonce, fixedClock() + 2 * limits.clockSkewSeconds * 1000);
  });

  it("the body reader is not called for a request refused on its headers", async () => {
    const read = vi.fn(async () => utf8("{}"));
    const result = await verifySignedRequest(
      { method: "POST", rawPath: UPSERT, headers: [], body: read },
      createTestOptions(),
    );
    expect(result).toMatchObject({ ok: false, status: 400 });
    expect(read).not.toHaveBeenCalled();
  });

  it("the body reader is asked for at most maxBodyBytes, and its 'too large' is 400 REQUEST_INVALID", async () => {
    const wire = signedRequest({ path: UPSERT, body: "{}" });
    const read = vi.fn(async () => undefined);
    const result = await verifySignedRequest(
      { ...incoming(wire), body: read },
      createTestOptions({ limits: { maxBodyBytes: 1234 } }),
    );
    expect(read).toHaveBeenCalledWith(1234);
    expect(result).toMatchObject({
      ok: false,
      status: 400,
      body: { error: { code: "REQUEST_INVALID", message: "the request body exceeds 1234 bytes" } },
    });
  });

  it("the signature check does not parse the body: a signed non-JSON body is verified (parseAndValidate rejects it)", async () => {
    const result = await verifySignedRequest(
      incoming(signedRequest({ path: UPSERT, body: "not json" })),
      createTestOptions(),
    );
    expect(result.ok).toBe(true);
  });
});

describe("verifySignedRequest: limits, options and dependencies", () => {
  it(`Limits: the default body limit is the spec's ${limits.maxBodyBytes} bytes`, async () => {
    const padded = (size: number) => `{}${" ".repeat(size - 2)}`;
    const options = createTestOptions({ limits: {} });
    const atLimit = await verifySignedRequest(
      incoming(signedRequest({ path: UPSERT, body: padded(limits.maxBodyBytes) })),
      options,
    );
    expect(atLimit.ok).toBe(true);
    const over = await verifySignedRequest(
      incoming(signedRequest({ path: UPSERT, body: padded(limits.maxBodyBytes + 1) })),
      options,
    );
    expect(over).toMatchObject({ ok: false, status: 400, body: { error: { code: "REQUEST_INVALID" } } });
  });

  it("Limits: a deployer-configured skew window is honoured in both directions", async () => {
    const options = createTestOptions({ limits: { clockSkewSeconds: 60 } });
    for (const [offset, ok] of [
      [-60, true],
      [-61, false],
      [60, true],
      [61, false],
    ] as const) {
      const result = await verifySignedRequest(
        incoming(signedRequest({ path: UPSERT, body: "{}", timestamp: String(NOW_SECONDS + offset) })),
        options,
      );
      expect(result.ok, `offset ${offset}`).toBe(ok);
    }
  });

  it.each([
    { rule: "a zero body limit", options: { limits: { maxBodyBytes: 0 } } },
    { rule: "a fractional skew", options: { limits: { clockSkewSeconds: 1.5 } } },
    { rule: "an allowed origin with a path", options: { allowedOrigins: ["https://docs.example.com/"] } },
    { rule: "no lookupKey", options: { lookupKey: undefined } },
    { rule: "no nonce store", options: { nonceStore: undefined } },
    { rule: "a base path with a trailing slash", options: { basePath: "/webinar/" } },
  ])("options are validated once, up front: $rule throws", ({ options }) => {
    expect(() => createRequestVerifier(createTestOptions(options as Partial<SignedRequestOptions>))).toThrow();
  });

  it("Errors and retries: a failing lookupKey -> 503, reported to onError with its source", async () => {
    const onError = vi.fn();
    const failure = new Error("db down");
    const options = createTestOptions({ lookupKey: async () => Promise.reject(failure), onError });
    const result = await verifySignedRequest(incoming(signedRequest({ path: UPSERT, body: "{}" })), options);
    expect(result).toMatchObject({ ok: false, status: 503, body: { error: { code: "AUTH_DEPENDENCY_UNAVAILABLE" } } });
    expect(onError).toHaveBeenCalledWith(failure, "lookupKey");
  });

  it("Errors and retries: a lookupKey that throws synchronously -> 503", async () => {
    const options = createTestOptions({
      lookupKey: () => {
        throw new Error("boom");
      },
    });
    expect(await verifySignedRequest(incoming(signedRequest({ path: UPSERT, body: "{}" })), options)).toMatchObject({
      status: 503,
    });
  });

  it("Errors and retries: a key record without a secret is a broken dependency -> 503, not 500 or 401", async () => {
    const options = createTestOptions({ lookupKey: async () => ({ secret: "", merchantId: "m", status: "ACTIVE" }) });
    expect(await verifySignedRequest(incoming(signedRequest({ path: UPSERT, body: "{}" })), options)).toMatchObject({
      status: 503,
    });
  });

  it("Errors and retries: a key record whose signer cannot verify is a broken dependency -> 503", async () => {
    const signer = {} as Signer;
    const options = createTestOptions({
      lookupKey: async () => ({ secret: ACTIVE.secret, merchantId: "m", status: "ACTIVE", signer }),
    });
    expect(await verifySignedRequest(incoming(signedRequest({ path: UPSERT, body: "{}" })), options)).toMatchObject({
      status: 503,
      body: { error: { code: "AUTH_DEPENDENCY_UNAVAILABLE" } },
    });
  });

  it("a prepared signer, when the record has one, is what verifies the signature", async () => {
    const record: ApiKeyRecord = {
      secret: "a-secret-that-would-not-verify",
      merchantId: ACTIVE.merchantId,
      status: "ACTIVE",
      signer: createSigner(ACTIVE.secret),
    };
    const options = createTestOptions({ lookupKey: async () => record });
    expect(await verifySignedRequest(incoming(signedRequest({ path: UPSERT, body: "{}" })), options)).toMatchObject({
      ok: true,
      merchantId: ACTIVE.merchantId,
    });
  });

  it("Errors and retries: a failing nonce store -> 503 AUTH_DEPENDENCY_UNAVAILABLE", async () => {
    const onError = vi.fn();
    const options = createTestOptions({
      nonceStore: { consume: async () => Promise.reject(new Error("redis down")) },
      onError,
    });
    expect(await verifySignedRequest(incoming(signedRequest({ path: UPSERT, body: "{}" })), options)).toMatchObject({
      status: 503,
      body: { error: { code: "AUTH_DEPENDENCY_UNAVAILABLE" } },
    });
    expect(onError).toHaveBeenCalledWith(expect.any(Error), "nonceStore");
  });

  it("behind a proxy that keeps a base path: the full received path is matched and signed", async () => {
    const options = createTestOptions({ basePath: "/webinar" });
    const prefixed = await verifySignedRequest(
      incoming(signedRequest({ path: `/webinar${UPSERT}`, body: "{}" })),
      options,
    );
    expect(prefixed).toMatchObject({ ok: true, operationId: "upsertViewer" });
    const prefixNotSigned = await verifySignedRequest(
      incoming(signedRequest({ path: `/webinar${UPSERT}`, signedPath: UPSERT, body: "{}" })),
      options,
    );
    expect(prefixNotSigned).toMatchObject({ ok: false, status: 401 });
    const withoutPrefix = await verifySignedRequest(incoming(signedRequest({ path: UPSERT, body: "{}" })), options);
    expect(withoutPrefix).toMatchObject({ ok: false, status: 404 });
  });

  it("every answer carries the request id in the envelope and in X-Request-Id", async () => {
    const options = createTestOptions({ createRequestId: () => "req_fixed_1" });
    const rejected = await verifySignedRequest(
      { method: "POST", rawPath: "/nowhere", headers: [], body: new Uint8Array() },
      options,
    );
    expect(rejected).toMatchObject({
      ok: false,
      status: 404,
      body: { requestId: "req_fixed_1" },
      headers: { "X-Request-Id": "req_fixed_1" },
    });
    const accepted = await verifySignedRequest(incoming(signedRequest({ path: UPSERT, body: "{}" })), options);
    expect(accepted).toMatchObject({ ok: true, requestId: "req_fixed_1", headers: { "X-Request-Id": "req_fixed_1" } });
  });

  it("the default request id is req_ and 32 hex characters, unique per request", async () => {
    const options = createTestOptions();
    const ids = new Set<string>();
    // More ids than one batch of random bytes serves (256), so refills are covered too.
    for (let index = 0; index < 600; index += 1) {
      const result = await verifySignedRequest(
        { method: "GET", rawPath: UPSERT, headers: [], body: new Uint8Array() },
        options,
      );
      ids.add(result.ok ? "" : result.body!.requestId);
    }
    expect(ids.size).toBe(600);
    for (const id of ids) expect(id).toMatch(/^req_[0-9a-f]{32}$/);
  });

  it("Signing requests: a Web Headers with a repeated signature header (joined with ', ') -> 400", async () => {
    const wire = signedRequest({ path: UPSERT, body: "{}" });
    const headers = new Headers(wire.headers);
    headers.append("X-Timestamp", String(NOW_SECONDS));
    const result = await verifySignedRequest({ ...incoming(wire), headers }, createTestOptions());
    expect(result).toMatchObject({ ok: false, status: 400, body: { error: { code: "REQUEST_INVALID" } } });
  });

  it("Signing requests: an explicit origin field is checked like the Origin header", async () => {
    const result = await verifySignedRequest(
      { ...incoming(signedRequest({ path: UPSERT, body: "{}" })), origin: "https://evil.example" },
      createTestOptions(),
    );
    expect(result).toMatchObject({ ok: false, status: 403, body: { error: { code: "ORIGIN_FORBIDDEN" } } });
  });

  it("Signing requests: without allowedOrigins every browser origin is forbidden", async () => {
    const wire = withHeader(signedRequest({ path: UPSERT, body: "{}" }), "Origin", "https://docs.example.com");
    expect(await verifySignedRequest(incoming(wire), createTestOptions({ allowedOrigins: [] }))).toMatchObject({
      status: 403,
    });
  });

  it("Signing requests: a verified request sent again through verifySignedRequest -> 409 OPEN_API_REPLAYED", async () => {
    const options = createTestOptions();
    const wire = signedRequest({ path: UPSERT, body: "{}" });
    expect((await verifySignedRequest(incoming(wire), options)).ok).toBe(true);
    expect(await verifySignedRequest(incoming(wire), options)).toMatchObject({
      status: 409,
      body: { error: { code: "OPEN_API_REPLAYED" } },
    });
  });
});
