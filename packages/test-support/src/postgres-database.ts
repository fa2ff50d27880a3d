/**
 * PostgreSQL databases of the tests: the machine's server on 127.0.0.1:5432 (trust auth, or
 * WEBINAR_TEST_POSTGRES_URL), where each test creates a database with a unique name and drops it afterwards. The
 * benchmarks make theirs the same way, on the server of the admin URL they are given.
 */
import { randomBytes } from "node:crypto";
import pg from "pg";

/** The maintenance database of the machine's PostgreSQL. */
export const POSTGRES_ADMIN_URL =
  process.env.WEBINAR_TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

export interface PostgresDatabase {
  url: string;
  name: string;
  /** A statement on this database, for a test to look at or put state where it needs it. */
  query(text: string, values?: unknown[]): Promise<Record<string, unknown>[]>;
  /** Drops the database, closing whatever connections are left. */
  drop(): Promise<void>;
}

/** Runs one statement on the database at `url` with a connection of its own. */
export async function queryOnce(url: string, text: string, values?: unknown[]): Promise<Record<string, unknown>[]> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    return (await client.query(text, values)).rows;
  } finally {
    await client.end();
  }
}

/** Longest a drop waits for the database's connections to close before it forces them out. */
const CLOSING_CONNECTIONS_WAIT_MS = 1000;

/**
 * Drops `name`. A pg pool's `end()` resolves once it has told its connections to close, not once they have; a
 * forced drop then terminates the ones still closing, and the pool reports that termination as an error event
 * nobody listens to any more (an uncaught exception in the test run). So the drop first waits, briefly, for the
 * database's connections to go, and forces out only what is left.
 */
async function dropDatabase(adminUrl: string, name: string): Promise<void> {
  const admin = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 5000 });
  await admin.connect();
  try {
    const deadline = Date.now() + CLOSING_CONNECTIONS_WAIT_MS;
    while (Date.now() < deadline) {
      const { rows } = await admin.query<{ open: number }>(
        "select count(*)::int as open from pg_stat_activity where datname = $1",
        [name],
      );
      if (rows[0]!.open === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    await admin.query(`drop database if exists "${name}" with (force)`);
  } finally {
    await admin.end();
  }
}

/** Where a database is made and what its name begins with. */
export interface DatabasePlace {
  /** The maintenance database of the PostgreSQL server to make it on; POSTGRES_ADMIN_URL unless given. */
  adminUrl?: string;
  /** `webinar_test` unless given (the benchmarks': `webinar_bench`). */
  prefix?: string;
}

/**
 * Creates an empty database named `<prefix>_<label>_<random hex>` (the label in lower case, other characters than
 * letters and digits as `_`).
 */
export async function createPostgresDatabase(label: string, place: DatabasePlace = {}): Promise<PostgresDatabase> {
  const { adminUrl = POSTGRES_ADMIN_URL, prefix = "webinar_test" } = place;
  const name = `${prefix}_${label
    .replace(/[^a-z0-9]/gi, "_")
    .toLowerCase()
    .slice(0, 30)}_${randomBytes(4).toString("hex")}`;
  await queryOnce(adminUrl, `create database "${name}"`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    query: (text, values) => queryOnce(url.toString(), text, values),
    drop: () => dropDatabase(adminUrl, name),
  };
}
