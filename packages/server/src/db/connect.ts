/**
 * Opens the one database of the service through Kysely: the embedded PGlite (WASM PostgreSQL in this process)
 * by default, or PostgreSQL through a `pg` pool when DATABASE_URL is set. Both speak the same SQL, so every
 * query and migration is written once.
 *
 * PGlite has a single connection: kysely-pglite-dialect queues connection requests, so a transaction holds the
 * connection until it ends and transactions run one after another. The pool has hard time limits (connect,
 * statement, client-side query) so an unavailable database yields errors quickly and never a hang. On PostgreSQL
 * the handle's connections prepare the statements of fixed text (db/statements.ts) once each.
 */
import { PGlite } from "@electric-sql/pglite";
import { type Dialect, Kysely } from "kysely";
import { PGliteDialect } from "kysely-pglite-dialect";
import pg from "pg";
import type { StorageConfig } from "../config";
import { migrateToLatest } from "./migrations";
import { NamingPostgresDialect } from "./naming-postgres-dialect";
import type { Database } from "./schema";

export interface DatabaseHandle {
  db: Kysely<Database>;
  kind: StorageConfig["kind"];
  /** The embedded database itself (its LISTEN/NOTIFY works inside this process); undefined on PostgreSQL. */
  pglite: PGlite | undefined;
  /** The PostgreSQL pool, for its connection counts (metrics); undefined on the embedded database. */
  pool: pg.Pool | undefined;
  /** Closes the pool or the embedded database. */
  close(): Promise<void>;
}

export interface ConnectOptions {
  connectTimeoutMs: number;
  statementTimeoutMs: number;
  poolMax: number;
  /** A `dumpDataDir()` tarball to start a new embedded database from instead of running initdb (tests: seconds saved). */
  pgliteSnapshot?: Blob;
  /** Called with errors of idle pooled connections (a database restart), which must not crash the process. */
  onPoolError?: (error: Error) => void;
  /**
   * Wraps the database's dialect, such as the tracing's (tracing/traced-dialect.ts) when tracing is on; the
   * assembly passes it in, so the database layer knows nothing of what wraps it.
   */
  wrapDialect?: ((dialect: Dialect) => Dialect) | undefined;
}

/**
 * The client-side query limit is this much above the server-side `statement_timeout`: the server's own cancel
 * normally answers first, and a database that stops answering altogether still fails the query soon after.
 */
const CLIENT_QUERY_MARGIN_MS = 500;

async function openPglite(dataDir: string, options: ConnectOptions): Promise<PGlite> {
  const pgliteOptions = options.pgliteSnapshot === undefined ? {} : { loadDataDir: options.pgliteSnapshot };
  if (dataDir === "memory:") return PGlite.create(pgliteOptions);
  return PGlite.create({ dataDir, ...pgliteOptions });
}

/**
 * Connects and migrates to the latest schema.
 *
 * @example
 * const limits = { connectTimeoutMs: 2000, statementTimeoutMs: 5000, poolMax: 10 };
 * const { db, close } = await connectDatabase({ kind: "pglite", dataDir: "memory:" }, limits);
 */
export async function connectDatabase(storage: StorageConfig, options: ConnectOptions): Promise<DatabaseHandle> {
  let dialect: Dialect;
  let pglite: PGlite | undefined;
  let pool: pg.Pool | undefined;
  if (storage.kind === "pglite") {
    pglite = await openPglite(storage.dataDir, options);
    dialect = new PGliteDialect(pglite);
  } else {
    pool = new pg.Pool({
      connectionString: storage.databaseUrl,
      max: options.poolMax,
      connectionTimeoutMillis: options.connectTimeoutMs,
      statement_timeout: options.statementTimeoutMs,
      idle_in_transaction_session_timeout: options.statementTimeoutMs * 2,
      // Client-side limit too: a database that stops answering without closing the socket still fails fast.
      query_timeout: options.statementTimeoutMs + CLIENT_QUERY_MARGIN_MS,
      idleTimeoutMillis: 30_000,
      keepAlive: true,
      application_name: "webinar-server",
    });
    pool.on("error", (error) => options.onPoolError?.(error));
    // The pool listens for errors of idle connections only: a connection lost while a request holds it (the
    // database crashed between two statements) emits its error on the client, which without a listener would
    // take the whole process down. The request itself still sees the failure and answers its 503.
    pool.on("connect", (client) => client.on("error", (error) => options.onPoolError?.(error)));
    dialect = new NamingPostgresDialect(pool);
  }
  const db = new Kysely<Database>({
    dialect: options.wrapDialect === undefined ? dialect : options.wrapDialect(dialect),
  });
  try {
    await migrateToLatest(db);
  } catch (error) {
    await db.destroy().catch(() => undefined);
    throw error;
  }
  return { db, kind: storage.kind, pglite, pool, close: () => db.destroy() };
}
