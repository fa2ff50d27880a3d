/**
 * Nonces in the service's database, shared by every process using it: `INSERT ... ON CONFLICT DO NOTHING` on the
 * primary key (api_key, nonce) is atomic, so of two requests with one nonce, on one process or two, exactly one
 * inserts the row. Rows live at least twice the skew window and are pruned after that.
 */
import type { Kysely } from "kysely";
import { statement } from "../db/compiled";
import type { Database } from "../db/schema";
import type { Runtime } from "../runtime";
import type { ConsumingNonceStore } from "./nonce-store";

export interface DatabaseNonceStoreOptions {
  clockSkewSeconds: number;
  runtime: Pick<Runtime, "now">;
}

const consumeNonce = statement<{ nonce: string }>(`
  insert into open_api_nonces (api_key, nonce, expires_at) values ($1, $2, $3)
  on conflict (api_key, nonce) do nothing
  returning nonce
`);

/**
 * @example
 * const nonces = createDatabaseNonceStore(db, { clockSkewSeconds: 300, runtime: systemRuntime });
 * await nonces.consume(apiKey, nonce, Date.now() + 600_000); // true, then false for the same pair
 */
export function createDatabaseNonceStore(db: Kysely<Database>, options: DatabaseNonceStoreOptions): ConsumingNonceStore {
  const retentionMs = 2 * options.clockSkewSeconds * 1000;
  return {
    async consume(apiKey, nonce, expiresAtMs) {
      const expiresAt = Math.max(expiresAtMs, options.runtime.now() + retentionMs);
      const inserted = await consumeNonce(db, [apiKey, nonce, new Date(expiresAt)]);
      return inserted.length === 1;
    },
    async prune() {
      const result = await db.deleteFrom("open_api_nonces").where("expires_at", "<", new Date(options.runtime.now())).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
