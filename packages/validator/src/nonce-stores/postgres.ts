/**
 * `@org/webinar-validator/nonce-store/postgres`: used nonces in a PostgreSQL table that every server process
 * shares. A nonce is claimed by an insert that, on a conflict with a row already there, takes the row over only if
 * it has expired. PostgreSQL runs it atomically, so of several requests with one nonce, on one process or many,
 * exactly one wins.
 *
 * Group commit (the default): the claims that arrive while a statement is in flight are written together by the
 * next one (at the latest `maxWaitMs` later), a single statement of up to `maxBatchSize` claims, and each caller
 * is answered once that statement has committed. A lone claim is written at once; under load the batches grow on their own, so a busy server makes
 * one round trip for many requests instead of one each. A nonce claimed twice within one batch is accepted once
 * (the first claim); if the statement fails, every claim it carried is rejected (the verifier answers each 503
 * `AUTH_DEPENDENCY_UNAVAILABLE`) and none is recorded.
 *
 * The client is anything with `query(text, values)` resolving `{ rows }`: a `pg.Pool` (or `pg.Client`), a PGlite
 * instance, or a wrapper around another driver. It must send JavaScript arrays as PostgreSQL arrays, as pg and
 * PGlite do. The store builds the text of each statement once, when it is created, and sends every value as a
 * parameter, so a wrapper may prepare each text it receives: their number is fixed.
 *
 * @example
 * import pg from "pg";
 * import { createPostgresNonceStore } from "@org/webinar-validator/nonce-store/postgres";
 *
 * const nonceStore = createPostgresNonceStore({ client: new pg.Pool({ connectionString: process.env.DATABASE_URL }) });
 * await nonceStore.ensureSchema(); // or run postgresNonceStoreSchema() in your migrations
 * setInterval(() => void nonceStore.prune(), 60_000).unref();
 */
import type { NonceStore } from "../nonce-store";
import { type BatchWritten, createGroupCommit } from "@org/webinar-internal/group-commit";
import { noncePair } from "../nonce-pair";
import { positiveInteger } from "../positive-integer";

/** What the store needs of a PostgreSQL client: a parameterized query resolving the rows. */
export interface PostgresQueryable {
  query(text: string, values?: unknown[]): Promise<{ rows: unknown[] }>;
}

/** Options of {@link createPostgresNonceStore}. */
export interface PostgresNonceStoreOptions {
  /** A `pg.Pool`, a `pg.Client`, a PGlite instance: anything with `query(text, values)` resolving `{ rows }`. */
  client: PostgresQueryable;
  /** The table, optionally schema-qualified (`webinar.nonces`); default `webinar_nonces`. */
  table?: string;
  /** Clock in epoch milliseconds, the same one the verifier uses; default `Date.now`. */
  now?: () => number;
  /**
   * Group commit of claims (see the module's description): `maxBatchSize` bounds the claims one statement carries
   * (default 100), `maxWaitMs` how long claims wait for a statement in flight before they go in one of their own
   * (default 5); `onWrite` is told of every statement once it has committed or failed (how many claims it
   * carried, how long it took: for metrics); `false` writes each claim by a statement of its own.
   */
  groupCommit?: false | GroupCommitChoice;
}

/** The group commit options of {@link PostgresNonceStoreOptions}. */
export interface GroupCommitChoice {
  maxBatchSize?: number;
  maxWaitMs?: number;
  onWrite?: (written: BatchWritten) => void;
}

/** A {@link NonceStore} in PostgreSQL, with its table's schema and the removal of expired rows. */
export interface PostgresNonceStore extends NonceStore {
  /** Creates the table and its expiry index if they do not exist; safe to run from every process at start. */
  ensureSchema(): Promise<void>;
  /** Deletes the nonces that have expired; resolves how many. Run it now and then (every minute is plenty). */
  prune(): Promise<number>;
  /**
   * Writes the claims gathering now and resolves once every claim made so far is committed (or failed): call it
   * on shutdown before closing the client.
   */
  drain(): Promise<void>;
}

const DEFAULT_TABLE = "webinar_nonces";
const DEFAULT_MAX_BATCH_SIZE = 100;
const DEFAULT_MAX_WAIT_MS = 5;
// How PostgreSQL fails the losers of a race on CREATE ... IF NOT EXISTS once the winner has committed: a unique
// violation in its catalog, or "type/relation already exists", depending on where the race is lost.
const CREATED_BY_ANOTHER = new Set(["23505", "42710", "42P07"]);
const TABLE_NAME = /^(?:[a-z_][a-z0-9_]*\.)?[a-z_][a-z0-9_]*$/;

function checkedTable(table: string): string {
  if (!TABLE_NAME.test(table))
    throw new TypeError(
      `table must be a lowercase SQL name such as "webinar_nonces" or "webinar.nonces", got ${JSON.stringify(table)}`,
    );
  return table;
}

/**
 * The statements that create the store's table and index (idempotent), for a migration tool; `ensureSchema()` runs
 * the same. A nonce is kept per API key until `expires_at_ms` (epoch milliseconds).
 *
 * @example
 * for (const statement of postgresNonceStoreSchema()) await migrations.run(statement);
 */
export function postgresNonceStoreSchema(table: string = DEFAULT_TABLE): string[] {
  const name = checkedTable(table);
  // An index lives in its table's schema, so its name is never qualified.
  const indexName = `${name.slice(name.indexOf(".") + 1)}_expires_idx`;
  return [
    `CREATE TABLE IF NOT EXISTS ${name} (
  api_key text NOT NULL,
  nonce text NOT NULL,
  expires_at_ms bigint NOT NULL,
  PRIMARY KEY (api_key, nonce)
)`,
    `CREATE INDEX IF NOT EXISTS ${indexName} ON ${name} (expires_at_ms)`,
  ];
}

/** One `consume` call. */
interface Claim {
  apiKey: string;
  nonce: string;
  expiresAtMs: number;
}

function groupCommitOptions(groupCommit: GroupCommitChoice = {}) {
  return {
    ...(groupCommit.onWrite === undefined ? {} : { onWrite: groupCommit.onWrite }),
    maxBatchSize: positiveInteger(groupCommit.maxBatchSize ?? DEFAULT_MAX_BATCH_SIZE, "groupCommit.maxBatchSize"),
    maxWaitMs: positiveInteger(groupCommit.maxWaitMs ?? DEFAULT_MAX_WAIT_MS, "groupCommit.maxWaitMs"),
  };
}

/**
 * A {@link NonceStore} in PostgreSQL for several server processes (see the module's example). `consume` resolves
 * `true` for a nonce not recorded (or recorded and expired) for that API key, `false` for a replay; a failing query
 * rejects, which the verifier answers 503 `AUTH_DEPENDENCY_UNAVAILABLE`. Claims are group-committed unless
 * `groupCommit` is `false`.
 */
export function createPostgresNonceStore(options: PostgresNonceStoreOptions): PostgresNonceStore {
  const { client, now = Date.now } = options;
  if (typeof client?.query !== "function")
    throw new TypeError("client must have a query(text, values) method, e.g. a pg.Pool or a PGlite instance");
  const table = checkedTable(options.table ?? DEFAULT_TABLE);
  // The row of an expired nonce is taken over, so a nonce is refused exactly while it is unexpired. The rows go in
  // key order, so two statements that share nonces lock them in the same order and cannot deadlock.
  const claimStatement = `INSERT INTO ${table} AS stored (api_key, nonce, expires_at_ms)
SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[]) ORDER BY 1, 2
ON CONFLICT (api_key, nonce) DO UPDATE SET expires_at_ms = excluded.expires_at_ms WHERE stored.expires_at_ms <= $4
RETURNING api_key, nonce`;
  const pruneStatement = `WITH removed AS (DELETE FROM ${table} WHERE expires_at_ms <= $1 RETURNING 1) SELECT count(*)::int AS removed FROM removed`;

  /** Writes a batch of claims by one statement; for each claim, whether it was the nonce's first use. */
  async function writeClaims(claims: readonly Claim[]): Promise<boolean[]> {
    // PostgreSQL refuses to touch one row twice in a statement: a pair claimed twice is written once, for its
    // first claim; the later ones are replays of it.
    const firstClaims = new Map<string, Claim>();
    for (const claim of claims) {
      const pair = noncePair(claim.apiKey, claim.nonce);
      if (!firstClaims.has(pair)) firstClaims.set(pair, claim);
    }
    const written = [...firstClaims.values()];
    const { rows } = await client.query(claimStatement, [
      written.map((claim) => claim.apiKey),
      written.map((claim) => claim.nonce),
      written.map((claim) => Math.ceil(claim.expiresAtMs)),
      now(),
    ]);
    const fresh = new Set(
      (rows as Array<{ api_key: string; nonce: string }>).map((row) => noncePair(row.api_key, row.nonce)),
    );
    return claims.map((claim) => {
      const pair = noncePair(claim.apiKey, claim.nonce);
      return firstClaims.get(pair) === claim && fresh.has(pair);
    });
  }

  const { groupCommit } = options;
  const commitClaim =
    groupCommit === false
      ? Object.assign(async (claim: Claim) => (await writeClaims([claim]))[0]!, { drain: async () => undefined })
      : createGroupCommit(writeClaims, groupCommitOptions(groupCommit));
  return {
    consume: (apiKey, nonce, expiresAtMs) => commitClaim({ apiKey, nonce, expiresAtMs }),
    drain: () => commitClaim.drain(),
    async ensureSchema() {
      for (const statement of postgresNonceStoreSchema(table)) {
        try {
          await client.query(statement, []);
        } catch (error) {
          // Processes starting together race on CREATE ... IF NOT EXISTS: PostgreSQL fails all but one, once the
          // winner committed, so the table or index is there.
          if (!CREATED_BY_ANOTHER.has((error as { code?: string }).code ?? "")) throw error;
        }
      }
    },
    async prune() {
      const { rows } = await client.query(pruneStatement, [now()]);
      return (rows[0] as { removed: number } | undefined)?.removed ?? 0;
    },
  };
}
