import { describe, expect, it } from "vitest";
import { createMemoryNonceStore, NonceStoreFullError } from "./nonce-store";

const clock = (start = 1_000_000) => {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
};

describe("createMemoryNonceStore", () => {
  it("Signing requests: the first use is accepted, the second is a replay", async () => {
    const time = clock();
    const store = createMemoryNonceStore({ now: time.now });
    expect(await store.consume("key", "nonce-0000000001", time.now() + 600_000)).toBe(true);
    expect(await store.consume("key", "nonce-0000000001", time.now() + 600_000)).toBe(false);
  });

  it("nonces are scoped to the API key", async () => {
    const store = createMemoryNonceStore();
    expect(await store.consume("key-a", "nonce-0000000001", Date.now() + 1000)).toBe(true);
    expect(await store.consume("key-b", "nonce-0000000001", Date.now() + 1000)).toBe(true);
  });

  it("a nonce is a replay until it expires, and may be recorded again after", async () => {
    const time = clock();
    const store = createMemoryNonceStore({ now: time.now });
    await store.consume("key", "n", time.now() + 600_000);
    time.advance(599_999);
    expect(await store.consume("key", "n", time.now() + 600_000)).toBe(false);
    time.advance(1);
    expect(await store.consume("key", "n", time.now() + 600_000)).toBe(true);
  });

  it("atomic: of concurrent uses of one nonce exactly one is accepted", async () => {
    const store = createMemoryNonceStore();
    const results = await Promise.all(
      Array.from({ length: 50 }, () => store.consume("key", "same", Date.now() + 1000)),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
  });

  it("bounded: full of unexpired nonces it throws rather than forget one (that would allow a replay)", async () => {
    const time = clock();
    const store = createMemoryNonceStore({ maxEntries: 3, now: time.now });
    for (const nonce of ["a", "b", "c"]) expect(await store.consume("key", nonce, time.now() + 1000)).toBe(true);
    await expect(store.consume("key", "d", time.now() + 1000)).rejects.toBeInstanceOf(NonceStoreFullError);
    // The earlier nonces are still remembered.
    expect(await store.consume("key", "a", time.now() + 1000)).toBe(false);
  });

  it("bounded: expired nonces are evicted first to make room", async () => {
    const time = clock();
    const store = createMemoryNonceStore({ maxEntries: 3, now: time.now });
    await store.consume("key", "old-1", time.now() + 100);
    await store.consume("key", "old-2", time.now() + 100);
    await store.consume("key", "live", time.now() + 10_000);
    time.advance(200);
    expect(await store.consume("key", "new-1", time.now() + 10_000)).toBe(true);
    expect(await store.consume("key", "new-2", time.now() + 10_000)).toBe(true);
    expect(await store.consume("key", "live", time.now() + 10_000)).toBe(false);
    await expect(store.consume("key", "new-3", time.now() + 10_000)).rejects.toBeInstanceOf(NonceStoreFullError);
  });

  it("bounded across API keys: expired nonces of any key make room", async () => {
    const time = clock();
    const store = createMemoryNonceStore({ maxEntries: 2, now: time.now });
    await store.consume("key-a", "a1", time.now() + 100);
    await store.consume("key-b", "b1", time.now() + 100);
    await expect(store.consume("key-c", "c1", time.now() + 100)).rejects.toBeInstanceOf(NonceStoreFullError);
    time.advance(100);
    expect(await store.consume("key-c", "c1", time.now() + 100)).toBe(true);
    expect(await store.consume("key-a", "a2", time.now() + 100)).toBe(true);
    await expect(store.consume("key-b", "b2", time.now() + 100)).rejects.toBeInstanceOf(NonceStoreFullError);
  });

  it("stays near the live set without a timer: calls sweep expired entries in batches", async () => {
    const time = clock();
    const store = createMemoryNonceStore({ maxEntries: 100, now: time.now });
    // 1000 requests, each nonce living 10 ms, one request per ms: never more than ~10 live, so 100 suffice.
    for (let index = 0; index < 1000; index += 1) {
      expect(await store.consume("key", `n${index}`, time.now() + 10)).toBe(true);
      time.advance(1);
    }
  });

  it.each([0, -1, 1.5, Number.NaN])("maxEntries %s is rejected", (maxEntries) => {
    expect(() => createMemoryNonceStore({ maxEntries })).toThrow(RangeError);
  });
});
