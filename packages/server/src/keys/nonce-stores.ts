/**
 * The server's nonce store, one of @org/webinar-validator's: its PostgreSQL store in the service's database (on
 * PostgreSQL and on the embedded PGlite alike, through Kysely's connection), or its Redis store when REDIS_URL is
 * set. The validator consumes the nonce and decides how long it is kept; the server only prunes and closes.
 */
import type { Kysely } from "kysely";
import type { BatchWritten, NonceStore } from "@org/webinar-validator";
import { createPostgresNonceStore, type PostgresQueryable } from "@org/webinar-validator/nonce-store/postgres";
import { createRedisNonceStore } from "@org/webinar-validator/nonce-store/redis";
import type { Database } from "../db/schema";
import { runStatement, statement } from "../db/statements";
import type { Runtime } from "../runtime";
import { connectNonceRedis } from "./redis-client";

/** The table of used nonces, in the layout of the validator's PostgreSQL nonce store (migration 0007). */
export const NONCE_TABLE = "open_api_nonces";

/** A nonce store with the server's upkeep: removing expired nonces and closing its connection. */
export interface ServerNonceStore {
  store: NonceStore;
  /** Which store it is, for the start log line. */
  kind: "database" | "redis" | "custom";
  prune(): Promise<unknown>;
  /** Commits the claims gathering now; resolves once every claim made so far is answered (shutdown). */
  drain(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The validator's query client over Kysely's connection, so PGlite's single connection is shared, not raced. The
 * store builds each of its statements (the claim of a batch of nonces, the prune) once, when it is created, and
 * puts every value in parameters, so each text it sends is fixed: each runs as a statement of its own
 * (db/statements.ts), prepared once per connection.
 */
function kyselyQueryable(db: Kysely<Database>): PostgresQueryable {
  return {
    async query(text, values = []) {
      return { rows: await runStatement(db, statement(text), values) };
    },
  };
}

export interface NonceStoreChoice {
  db: Kysely<Database>;
  runtime: Pick<Runtime, "now">;
  redisUrl?: string | undefined;
  redisKeyPrefix?: string | undefined;
  /** A store given by the embedding code (tests), used as is. */
  custom?: NonceStore | undefined;
  /** Told of every batch of claims the database store writes (the metrics). */
  onWrite?: ((written: BatchWritten) => void) | undefined;
}

/**
 * @example
 * const nonces = openNonceStore({ db, runtime: systemRuntime });
 * const verifier = createRequestVerifier({ ...options, nonceStore: nonces.store });
 */
export function openNonceStore(choice: NonceStoreChoice): ServerNonceStore {
  const nothing = async () => undefined;
  if (choice.custom !== undefined)
    return { store: choice.custom, kind: "custom", prune: nothing, drain: nothing, close: nothing };
  if (choice.redisUrl !== undefined) {
    const client = connectNonceRedis(choice.redisUrl);
    const store = createRedisNonceStore({
      client,
      ...(choice.redisKeyPrefix === undefined ? {} : { keyPrefix: choice.redisKeyPrefix }),
    });
    // Redis expires the keys itself.
    return { store, kind: "redis", prune: nothing, drain: nothing, close: () => client.quit() };
  }
  const store = createPostgresNonceStore({
    client: kyselyQueryable(choice.db),
    table: NONCE_TABLE,
    now: () => choice.runtime.now(),
    ...(choice.onWrite === undefined ? {} : { groupCommit: { onWrite: choice.onWrite } }),
  });
  return { store, kind: "database", prune: () => store.prune(), drain: () => store.drain(), close: nothing };
}
