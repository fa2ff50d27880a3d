/**
 * `@org/webinar-validator/nonce-store/redis`: used nonces in Redis (6.2 or later), shared by every server
 * process. `SET <prefix><apiKey>:<nonce> 1 PXAT <expiresAtMs> NX` sets the key only if it is not there, atomically,
 * so of several requests with one nonce exactly one gets `OK`; Redis removes the key itself when it expires.
 *
 * @example
 * import { Redis } from "ioredis";
 * import { createRedisNonceStore } from "@org/webinar-validator/nonce-store/redis";
 *
 * // Fail fast while Redis is down, so requests are answered 503 instead of waiting in ioredis's queue.
 * const options = { enableOfflineQueue: false, maxRetriesPerRequest: 1, commandTimeout: 2000 };
 * const redis = new Redis(process.env.REDIS_URL!, options);
 * const nonceStore = createRedisNonceStore({ client: redis });
 */
import type { NonceStore } from "../nonce-store";

/** What the store needs of a Redis client: ioredis's `set` with an absolute expiry and `NX`. */
export interface RedisSetClient {
  set(key: string, value: string, expiry: "PXAT", unixTimeMilliseconds: number, condition: "NX"): Promise<"OK" | null>;
}

/** Options of {@link createRedisNonceStore}. */
export interface RedisNonceStoreOptions {
  /** An ioredis `Redis` (or `Cluster`) instance, or anything with the same `set`. */
  client: RedisSetClient;
  /** Prefix of every key; default `webinar:nonce:`. */
  keyPrefix?: string;
}

/**
 * A {@link NonceStore} in Redis for several server processes (see the module's example). `consume` resolves
 * `true` when it set the key, `false` for a replay; a failing command rejects, which the verifier answers 503
 * `AUTH_DEPENDENCY_UNAVAILABLE`. The expiry is absolute and on Redis's clock, which should agree with the servers'.
 */
export function createRedisNonceStore(options: RedisNonceStoreOptions): NonceStore {
  const { client, keyPrefix = "webinar:nonce:" } = options;
  if (typeof client?.set !== "function")
    throw new TypeError("client must be a Redis client with set(key, value, ...), e.g. an ioredis Redis instance");
  return {
    async consume(apiKey, nonce, expiresAtMs) {
      // A nonce has no colon (A-Z a-z 0-9 _ -), so the key names one (apiKey, nonce) pair whatever the key holds.
      return (await client.set(`${keyPrefix}${apiKey}:${nonce}`, "1", "PXAT", Math.ceil(expiresAtMs), "NX")) === "OK";
    },
  };
}
