/**
 * One verifier per server process, shared by every request: it knows your API keys (`lookupKey`) and remembers
 * used nonces (`nonceStore`). Every framework sample imports this file.
 */
import {
  createMemoryNonceStore,
  createRequestVerifier,
  type ApiKeyRecord,
  type NonceStore,
} from "@org/webinar-validator";
import { createPostgresNonceStore } from "@org/webinar-validator/nonce-store/postgres";
import { createRedisNonceStore } from "@org/webinar-validator/nonce-store/redis";
import { Redis } from "ioredis";
import pg from "pg";

// Your API keys and their secrets, as your merchant console stores them. A real service looks the key up in its
// database; this sample knows one key, given in the environment.
const apiKeys = new Map<string, ApiKeyRecord>([
  [
    process.env.WEBINAR_API_KEY ?? "wk_demo",
    { secret: process.env.WEBINAR_API_SECRET ?? "demo-secret", merchantId: "m_demo", status: "ACTIVE" },
  ],
]);

/**
 * Where used nonces are kept. One process: memory. Several processes or hosts behind one address: a store they
 * share, or a request replayed to another process would be accepted.
 */
async function createNonceStore(): Promise<NonceStore> {
  if (process.env.DATABASE_URL !== undefined) {
    const nonces = createPostgresNonceStore({ client: new pg.Pool({ connectionString: process.env.DATABASE_URL }) });
    await nonces.ensureSchema();
    setInterval(() => void nonces.prune().catch(() => undefined), 60_000).unref();
    return nonces;
  }
  if (process.env.REDIS_URL !== undefined) {
    // Fail fast while Redis is down: the request is answered 503 instead of waiting in ioredis's offline queue.
    const redis = new Redis(process.env.REDIS_URL, {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      commandTimeout: 2000,
    });
    redis.on("error", () => undefined); // failures reach the requests, as 503
    await new Promise((ready) => redis.once("ready", ready));
    return createRedisNonceStore({ client: redis });
  }
  return createMemoryNonceStore();
}

export const verifier = createRequestVerifier({
  // Unknown or revoked key: undefined (401). A suspended merchant: status "SUSPENDED" (403). A throw: 503.
  lookupKey: async (apiKey) => apiKeys.get(apiKey),
  nonceStore: await createNonceStore(),
  // Browser origins allowed to call the API (a documentation page's "try it"); server-to-server calls send none.
  allowedOrigins: process.env.ALLOWED_ORIGINS?.split(",") ?? [],
  // Key store and nonce store failures are answered 503 AUTH_DEPENDENCY_UNAVAILABLE; log them here.
  onError: (error, source) =>
    console.error(`webinar verification: ${source} failed:`, error instanceof Error ? error.message : error),
});
