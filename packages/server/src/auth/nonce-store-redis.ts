/**
 * Nonces in Redis (when REDIS_URL is set): `SET <prefix><apiKey>:<nonce> 1 NX PX <ttl>` is atomic, so exactly
 * one of two requests with one nonce sets the key, and Redis expires it after at least twice the skew window.
 * The client fails fast while Redis is down (no offline queue, one retry), so the request answers 503
 * AUTH_DEPENDENCY_UNAVAILABLE instead of waiting. Only the very first connection is waited for (up to the
 * connect timeout): without the offline queue, a request arriving while the server's connection is still
 * being set up would otherwise fail although Redis is fine.
 */
import { Redis } from "ioredis";
import type { Runtime } from "../runtime";
import { nonceRetentionMs, type ConsumingNonceStore } from "./nonce-store";

export interface RedisNonceStoreOptions {
  url: string;
  clockSkewSeconds: number;
  runtime: Pick<Runtime, "now">;
  /** Prefix of every key; tests use a unique one. */
  keyPrefix?: string;
  commandTimeoutMs?: number;
}

/**
 * @example
 * const nonces = createRedisNonceStore({ url: "redis://127.0.0.1:6379", clockSkewSeconds: 300, runtime: systemRuntime });
 */
export function createRedisNonceStore(options: RedisNonceStoreOptions): ConsumingNonceStore {
  const retentionMs = nonceRetentionMs(options.clockSkewSeconds);
  const prefix = options.keyPrefix ?? "webinar:nonce:";
  const connectTimeoutMs = 2000;
  const redis = new Redis(options.url, {
    lazyConnect: false,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: connectTimeoutMs,
    commandTimeout: options.commandTimeoutMs ?? 2000,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
  });
  // Connection errors surface on the commands; an unhandled 'error' event would end the process.
  redis.on("error", () => undefined);
  let firstConnection: Promise<void> | undefined = new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, connectTimeoutMs);
    timer.unref();
    redis.once("ready", () => {
      clearTimeout(timer);
      resolve();
    });
  }).then(() => {
    firstConnection = undefined;
  });
  return {
    async consume(apiKey, nonce, expiresAtMs) {
      if (firstConnection !== undefined) await firstConnection;
      const ttl = Math.max(expiresAtMs - options.runtime.now(), retentionMs);
      const reply = await redis.set(`${prefix}${apiKey}:${nonce}`, "1", "PX", Math.ceil(ttl), "NX");
      return reply === "OK";
    },
    async prune() {
      return 0; // Redis expires the keys itself.
    },
    async close() {
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}
