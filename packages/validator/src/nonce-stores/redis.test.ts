/**
 * The Redis nonce store against the real Redis at 127.0.0.1:6379 through ioredis, under a key prefix of its own
 * (removed after), concurrency across several connections included.
 */
import { randomBytes } from "node:crypto";
import { Redis } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import { createTestOptions, signedRequest } from "../../test/support/fixture";
import { createRequestVerifier } from "../request-verifier";
import { createRedisNonceStore, type RedisSetClient } from "./redis";

const prefix = `webinar-validator-test:${randomBytes(6).toString("hex")}:`;
const connections = Array.from({ length: 4 }, () => new Redis({ host: "127.0.0.1", port: 6379, lazyConnect: false }));
const [redis] = connections as [Redis, ...Redis[]];

afterAll(async () => {
  const keys = await redis.keys(`${prefix}*`);
  if (keys.length > 0) await redis.del(...keys);
  await Promise.all(connections.map((connection) => connection.quit()));
});

const nonce = () => randomBytes(16).toString("hex");
const store = (client: RedisSetClient = redis) => createRedisNonceStore({ client, keyPrefix: prefix });

describe("createRedisNonceStore with ioredis", () => {
  it("OPEN_API_REPLAYED: the first use is accepted, the second is a replay", async () => {
    const used = nonce();
    expect(await store().consume("key", used, Date.now() + 60_000)).toBe(true);
    expect(await store().consume("key", used, Date.now() + 60_000)).toBe(false);
  });

  it("nonces are scoped to the API key", async () => {
    const used = nonce();
    expect(await store().consume("key-a", used, Date.now() + 60_000)).toBe(true);
    expect(await store().consume("key-b", used, Date.now() + 60_000)).toBe(true);
  });

  it("SET <prefix><apiKey>:<nonce> 1 PXAT <expiresAtMs> NX: the key expires exactly at expiresAtMs", async () => {
    const used = nonce();
    const expiresAt = Date.now() + 600_000;
    await store().consume("wk_live_1", used, expiresAt);
    expect(await redis.get(`${prefix}wk_live_1:${used}`)).toBe("1");
    expect(await redis.call("PEXPIRETIME", `${prefix}wk_live_1:${used}`)).toBe(expiresAt);
  });

  it("an expired nonce may be used again (Redis dropped the key)", async () => {
    const used = nonce();
    const past = Date.now() - 1;
    expect(await store().consume("key", used, past)).toBe(true);
    expect(await redis.exists(`${prefix}key:${used}`)).toBe(0);
    expect(await store().consume("key", used, Date.now() + 60_000)).toBe(true);
    expect(await store().consume("key", used, Date.now() + 60_000)).toBe(false);
  });

  it("atomic: of 40 concurrent uses of one nonce over 4 connections exactly one is accepted", async () => {
    const used = nonce();
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, index) =>
        store(connections[index % connections.length]).consume("key", used, Date.now() + 60_000),
      ),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
  });

  it("refuses a client without set()", () => {
    expect(() => createRedisNonceStore({ client: {} as RedisSetClient })).toThrow(/set/);
  });
});

describe("createRedisNonceStore in the verifier", () => {
  it("a replayed request -> 409 OPEN_API_REPLAYED, also from a second verifier (another process)", async () => {
    // The expiry is absolute and Redis keeps it on its own clock, so these verifiers read the system clock too.
    const first = createRequestVerifier(createTestOptions({ nonceStore: store(), now: Date.now }));
    const second = createRequestVerifier(createTestOptions({ nonceStore: store(connections[1]), now: Date.now }));
    const wire = signedRequest({
      path: "/api/v1/open/viewers/upsert",
      body: '{"externalUserId":"crm-1"}',
      timestamp: String(Math.floor(Date.now() / 1000)),
    });
    const incoming = { method: wire.method, rawPath: wire.path, headers: wire.headers, body: wire.body };
    expect(await first.verify(incoming)).toMatchObject({ ok: true });
    expect(await second.verify(incoming)).toMatchObject({
      ok: false,
      status: 409,
      body: { error: { code: "OPEN_API_REPLAYED" } },
    });
  });

  it("Redis unreachable -> 503 AUTH_DEPENDENCY_UNAVAILABLE (a client that fails fast), told to onError", async () => {
    const down = new Redis({
      host: "127.0.0.1",
      port: 1,
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
    });
    const errors: string[] = [];
    const verifier = createRequestVerifier(
      createTestOptions({ nonceStore: store(down), onError: (_error, source) => errors.push(source) }),
    );
    const wire = signedRequest({ path: "/api/v1/open/viewers/upsert", body: '{"externalUserId":"crm-1"}' });
    expect(
      await verifier.verify({ method: wire.method, rawPath: wire.path, headers: wire.headers, body: wire.body }),
    ).toMatchObject({
      ok: false,
      status: 503,
      body: { error: { code: "AUTH_DEPENDENCY_UNAVAILABLE" } },
    });
    expect(errors).toEqual(["nonceStore"]);
    down.disconnect();
  });
});
