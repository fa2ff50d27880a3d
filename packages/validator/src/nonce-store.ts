/**
 * Replay protection (spec §5.3: a used nonce gives 409 OPEN_API_REPLAYED). The verifier consumes a nonce only
 * after the signature verifies, and keeps it at least twice the clock-skew window: a request is acceptable while
 * its timestamp is within ±skew of the server clock, so a nonce first seen at `now` cannot be replayed
 * acceptably after `now + 2 × skew`.
 */

/** Where used nonces are remembered. Must be shared by every server process that accepts the same API keys. */
export interface NonceStore {
  /**
   * Records `nonce` for `apiKey` until `expiresAtMs` (epoch milliseconds) and returns `true` if it was not already
   * recorded and unexpired, `false` if it was (a replay). Must be atomic: of two concurrent calls with the same
   * nonce, exactly one returns `true`. A store that cannot answer throws (or rejects); the verifier answers 503
   * `AUTH_DEPENDENCY_UNAVAILABLE`, never accepting the request.
   *
   * With Redis: `SET nonce:<apiKey>:<nonce> 1 PXAT <expiresAtMs> NX` returns OK exactly once.
   */
  consume(apiKey: string, nonce: string, expiresAtMs: number): Promise<boolean>;
}

/** Options of {@link createMemoryNonceStore}. */
export interface MemoryNonceStoreOptions {
  /** Most nonces held at once; default 100 000 (about 15 MB). */
  maxEntries?: number;
  /** Clock in epoch milliseconds, the same one the verifier uses; default `Date.now`. */
  now?: () => number;
}

/** Thrown by the memory store when it is full of unexpired nonces; the verifier answers 503. */
export class NonceStoreFullError extends Error {
  override readonly name = "NonceStoreFullError";
}

const DEFAULT_MAX_ENTRIES = 100_000;
// Every SWEEP_EVERY calls, up to SWEEP_LIMIT expired entries of the key are dropped (4 per call on average), so the
// map stays near the live set without a timer; sweeping in batches spares most calls the iterator it needs.
const SWEEP_EVERY = 16;
const SWEEP_LIMIT = 64;

/**
 * An in-memory {@link NonceStore} for ONE process: tests, development, a single-instance deployment. Several
 * processes or hosts each with their own memory store would accept a request replayed to another process; use a
 * shared store (Redis, PostgreSQL) there.
 *
 * Bounded by `maxEntries`: expired nonces are evicted first (a few on every call, all of them when full). When it
 * is full of unexpired nonces it throws {@link NonceStoreFullError} rather than forget one, because forgetting an
 * unexpired nonce would let that request be replayed.
 *
 * @example
 * const nonceStore = createMemoryNonceStore({ maxEntries: 50_000 });
 * await nonceStore.consume("wk_live_1", "3f9c2a7d51e84b06a1c9e2f47d8b3a65", Date.now() + 600_000); // true
 * await nonceStore.consume("wk_live_1", "3f9c2a7d51e84b06a1c9e2f47d8b3a65", Date.now() + 600_000); // false
 */
export function createMemoryNonceStore(options: MemoryNonceStoreOptions = {}): NonceStore {
  const { maxEntries = DEFAULT_MAX_ENTRIES, now = Date.now } = options;
  if (!Number.isSafeInteger(maxEntries) || maxEntries < 1) throw new RangeError(`maxEntries must be a positive integer, got ${maxEntries}`);
  // Per key, nonce -> expiry. Insertion order is roughly expiry order (the verifier always adds the same window),
  // so the first entries of a key are the first to expire; a global count keeps the bound.
  const byKey = new Map<string, Map<string, number>>();
  let size = 0;
  let calls = 0;

  const sweep = (nonces: Map<string, number>, at: number, limit: number) => {
    let swept = 0;
    for (const [nonce, expiresAt] of nonces) {
      if (swept >= limit || expiresAt > at) break;
      nonces.delete(nonce);
      swept += 1;
    }
    size -= swept;
  };
  const sweepAll = (at: number) => {
    for (const [apiKey, nonces] of byKey) {
      for (const [nonce, expiresAt] of nonces) {
        if (expiresAt > at) continue;
        nonces.delete(nonce);
        size -= 1;
      }
      if (nonces.size === 0) byKey.delete(apiKey);
    }
  };

  return {
    async consume(apiKey, nonce, expiresAtMs) {
      const at = now();
      let nonces = byKey.get(apiKey);
      if (nonces === undefined) {
        nonces = new Map();
        byKey.set(apiKey, nonces);
      }
      const existing = nonces.get(nonce);
      if (existing !== undefined) {
        if (existing > at) return false;
        nonces.delete(nonce);
        size -= 1;
      }
      calls += 1;
      if (calls % SWEEP_EVERY === 0) sweep(nonces, at, SWEEP_LIMIT);
      if (size >= maxEntries) {
        sweepAll(at);
        if (size >= maxEntries) {
          if (nonces.size === 0) byKey.delete(apiKey);
          throw new NonceStoreFullError(`memory nonce store is full (${maxEntries} unexpired nonces)`);
        }
        // sweepAll drops keys left without nonces, possibly this one.
        byKey.set(apiKey, nonces);
      }
      nonces.set(nonce, expiresAtMs);
      size += 1;
      return true;
    },
  };
}
