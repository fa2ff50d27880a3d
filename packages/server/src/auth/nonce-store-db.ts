/**
 * Nonces in the service's database, shared by every process using it: `INSERT ... ON CONFLICT DO NOTHING` on the
 * primary key (api_key, nonce) is atomic, so of two requests with one nonce, on one process or two, exactly one
 * inserts the row. Rows live at least twice the skew window and are pruned after that.
 */
import type { Kysely } from "kysely";
import { statement } from "../db/compiled";
import type { Database } from "../db/schema";
import type { Runtime } from "../runtime";
import { StaleCredentialError } from "./credential-cache";
import { claimCtes } from "./nonce-claim";
import { nonceRetentionMs, type ConsumingNonceStore } from "./nonce-store";

export interface DatabaseNonceStoreOptions {
  clockSkewSeconds: number;
  runtime: Pick<Runtime, "now">;
  /**
   * Checking mode (with the credential cache): the same statement consumes the nonce only while the key is
   * ACTIVE and its merchant ACTIVE; otherwise nothing is consumed, `onStale` is told and StaleCredentialError
   * thrown.
   */
  checkKeyActive?: { onStale: (apiKey: string, nonce: string) => void };
}

const consumeNonce = statement<{ nonce: string }>(`
  insert into open_api_nonces (api_key, nonce, expires_at) values ($1, $2, $3)
  on conflict (api_key, nonce) do nothing
  returning nonce
`);

// One round trip: the key's and merchant's current status, and the nonce consumed only while both are ACTIVE
// (the same CTEs that fold a nonce into an operation's statement, nonce-claim.ts).
const consumeNonceIfKeyActive = statement<{ key_active: boolean; fresh: boolean }>(`
  with ${claimCtes(1)}
  select (select active from key_state) as key_active, exists (select 1 from consumed) as fresh
`);

/**
 * @example
 * const nonces = createDatabaseNonceStore(db, { clockSkewSeconds: 300, runtime: systemRuntime });
 * await nonces.consume(apiKey, nonce, Date.now() + 600_000); // true, then false for the same pair
 */
export function createDatabaseNonceStore(db: Kysely<Database>, options: DatabaseNonceStoreOptions): ConsumingNonceStore {
  const retentionMs = nonceRetentionMs(options.clockSkewSeconds);
  return {
    async consume(apiKey, nonce, expiresAtMs) {
      const expiresAt = Math.max(expiresAtMs, options.runtime.now() + retentionMs);
      if (options.checkKeyActive !== undefined) {
        const [row] = await consumeNonceIfKeyActive(db, [apiKey, nonce, new Date(expiresAt)]);
        if (row?.key_active !== true) {
          options.checkKeyActive.onStale(apiKey, nonce);
          throw new StaleCredentialError(apiKey, nonce);
        }
        return row.fresh === true;
      }
      const inserted = await consumeNonce(db, [apiKey, nonce, new Date(expiresAt)]);
      return inserted.length === 1;
    },
    async prune() {
      const result = await db.deleteFrom("open_api_nonces").where("expires_at", "<", new Date(options.runtime.now())).executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
