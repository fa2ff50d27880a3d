/**
 * The Redis connection of the nonce store (when REDIS_URL is set). It fails fast while Redis is down (no offline
 * queue, one retry), so a request answers 503 AUTH_DEPENDENCY_UNAVAILABLE instead of waiting. Only the very first
 * connection is waited for (up to the connect timeout): without the offline queue, a request arriving while the
 * connection is still being set up would otherwise fail although Redis is fine.
 */
import { Redis } from "ioredis";
import type { RedisSetClient } from "@org/webinar-validator/nonce-store/redis";

const CONNECT_TIMEOUT_MS = 2000;
const COMMAND_TIMEOUT_MS = 2000;

export interface NonceRedisClient extends RedisSetClient {
  quit(): Promise<void>;
}

/**
 * @example
 * const client = connectNonceRedis("redis://127.0.0.1:6379");
 * const nonceStore = createRedisNonceStore({ client });
 */
export function connectNonceRedis(url: string): NonceRedisClient {
  const redis = new Redis(url, {
    lazyConnect: false,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: CONNECT_TIMEOUT_MS,
    commandTimeout: COMMAND_TIMEOUT_MS,
    retryStrategy: (attempt) => Math.min(attempt * 200, 2000),
  });
  // Connection errors surface on the commands; an unhandled 'error' event would end the process.
  redis.on("error", () => undefined);
  let firstConnection: Promise<void> | undefined = new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, CONNECT_TIMEOUT_MS);
    timer.unref();
    redis.once("ready", () => {
      clearTimeout(timer);
      resolve();
    });
  }).then(() => {
    firstConnection = undefined;
  });
  return {
    async set(key, value, expiry, at, condition) {
      if (firstConnection !== undefined) await firstConnection;
      return redis.set(key, value, expiry, at, condition);
    },
    async quit() {
      await redis.quit().then(
        () => undefined,
        () => redis.disconnect(),
      );
    },
  };
}
