/**
 * Replay protection (`OPEN_API_REPLAYED`: a used nonce gives 409). The verifier consumes a nonce only after the
 * signature verifies, and keeps it at least twice the clock-skew window: a request is acceptable while its
 * timestamp is within ±skew of the server clock, so a nonce first seen at `now` cannot be replayed acceptably
 * after `now + 2 × skew`.
 *
 * One interface for every store: the memory store here for one process, and for several processes the PostgreSQL
 * store (`@org/webinar-validator/nonce-store/postgres`) or the Redis store
 * (`@org/webinar-validator/nonce-store/redis`).
 */
import { noncePair } from "./nonce-pair";

/** Where used nonces are remembered. Must be shared by every server process that accepts the same API keys. */
export interface NonceStore {
  /**
   * Records `nonce` for `apiKey` until `expiresAtMs` (epoch milliseconds) and returns `true` if it was not already
   * recorded and unexpired, `false` if it was (a replay). Must be atomic: of two concurrent calls with the same
   * nonce, exactly one returns `true`. A store that cannot answer throws (or rejects); the verifier answers 503
   * `AUTH_DEPENDENCY_UNAVAILABLE`, never accepting the request.
   */
  consume(apiKey: string, nonce: string, expiresAtMs: number): Promise<boolean>;
}

/** Options of {@link createMemoryNonceStore}. */
export interface MemoryNonceStoreOptions {
  /** Most nonces held at once; default 100 000. */
  maxEntries?: number;
  /** Clock in epoch milliseconds, the same one the verifier uses; default `Date.now`. */
  now?: () => number;
}

/** Thrown by the memory store when it is full of unexpired nonces; the verifier answers 503. */
export class NonceStoreFullError extends Error {
  override readonly name = "NonceStoreFullError";
}

const DEFAULT_MAX_ENTRIES = 100_000;

/**
 * An in-memory {@link NonceStore} for ONE process: tests, development, a single-instance deployment. Several
 * processes or hosts each with their own memory store would accept a request replayed to another process; use a
 * shared store (PostgreSQL, Redis) there.
 *
 * Bounded by `maxEntries`. The verifier gives every nonce the same lifetime, so nonces expire in the order they
 * were recorded: each call forgets the expired ones at the front, and the map stays near the live set without a
 * timer. When it is full of unexpired nonces it throws {@link NonceStoreFullError} rather than forget one, because
 * forgetting an unexpired nonce would let that request be replayed.
 *
 * @example
 * const nonceStore = createMemoryNonceStore({ maxEntries: 50_000 });
 * await nonceStore.consume("wk_live_1", "3f9c2a7d51e84b06a1c9e2f47d8b3a65", Date.now() + 600_000); // true
 * await nonceStore.consume("wk_live_1", "3f9c2a7d51e84b06a1c9e2f47d8b3a65", Date.now() + 600_000); // false
 */
export function createMemoryNonceStore(options: MemoryNonceStoreOptions = {}): NonceStore {
  const { maxEntries = DEFAULT_MAX_ENTRIES, now = Date.now } = options;
  if (!Number.isSafeInteger(maxEntries) || maxEntries < 1)
    throw new RangeError(`maxEntries must be a positive integer, got ${maxEntries}`);
  // "<apiKey>\n<nonce>" -> expiry, in the order recorded. A nonce holds no line feed, so a key names one pair.
  const expiries = new Map<string, number>();

  const forgetExpired = (at: number, all: boolean) => {
    for (const [key, expiresAt] of expiries) {
      if (expiresAt <= at) expiries.delete(key);
      else if (!all) return;
    }
  };

  return {
    async consume(apiKey, nonce, expiresAtMs) {
      const at = now();
      forgetExpired(at, false);
      const key = noncePair(apiKey, nonce);
      const existing = expiries.get(key);
      if (existing !== undefined && existing > at) return false;
      expiries.delete(key);
      if (expiries.size >= maxEntries) forgetExpired(at, true);
      if (expiries.size >= maxEntries)
        throw new NonceStoreFullError(`memory nonce store is full (${maxEntries} unexpired nonces)`);
      expiries.set(key, expiresAtMs);
      return true;
    },
  };
}
