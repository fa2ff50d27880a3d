/**
 * The databases every suite runs against: the embedded PGlite (started from the snapshot made by
 * global-setup.ts) and the machine's PostgreSQL on 127.0.0.1:5432 (trust auth), where each test file creates a
 * database of its own with a unique name and drops it afterwards. WEBINAR_TEST_DATABASES=pglite (or postgres)
 * runs one of the two only.
 */
import { readFile } from "node:fs/promises";
import { randomBytes } from "node:crypto";
import pg from "pg";
import { inject } from "vitest";
import { connectDatabase, type DatabaseHandle } from "../../src/db/connect";

export type DatabaseKind = "pglite" | "postgres";

/** The kinds this run covers. */
export const DATABASE_KINDS: DatabaseKind[] = (process.env.WEBINAR_TEST_DATABASES ?? "pglite,postgres")
  .split(",")
  .map((kind) => kind.trim())
  .filter((kind): kind is DatabaseKind => kind === "pglite" || kind === "postgres");

/** The maintenance database of the machine's PostgreSQL. */
export const POSTGRES_ADMIN_URL =
  process.env.WEBINAR_TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

export interface TestDatabase {
  kind: DatabaseKind;
  /** Environment selecting this database in loadConfig. */
  env: Record<string, string>;
  /** The open, migrated database, shared by the servers of a test file. */
  handle: DatabaseHandle;
  /** Closes it (and drops a PostgreSQL database). */
  close(): Promise<void>;
}

const TIMEOUTS = { connectTimeoutMs: 2000, statementTimeoutMs: 10_000, poolMax: 20 };

let snapshot: Promise<Blob> | undefined;

/** The PGlite data-directory tarball prepared by global-setup.ts. */
export function pgliteSnapshot(): Promise<Blob> {
  snapshot ??= readFile(inject("pgliteSnapshotFile")).then((bytes) => new Blob([bytes]));
  return snapshot;
}

async function withAdminClient<T>(run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL, connectionTimeoutMillis: 5000 });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

/** Creates an empty PostgreSQL database with a unique name; returns its URL and a function dropping it. */
export async function createPostgresDatabase(
  label: string,
): Promise<{ url: string; name: string; drop(): Promise<void> }> {
  const name = `webinar_test_${label
    .replace(/[^a-z0-9]/gi, "_")
    .toLowerCase()
    .slice(0, 30)}_${randomBytes(4).toString("hex")}`;
  await withAdminClient((client) => client.query(`create database "${name}"`));
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    drop: () =>
      withAdminClient((client) => client.query(`drop database if exists "${name}" with (force)`)).then(() => undefined),
  };
}

/** Opens (and migrates) a fresh database of the kind. */
export async function openTestDatabase(kind: DatabaseKind, label: string): Promise<TestDatabase> {
  if (kind === "pglite") {
    const handle = await connectDatabase(
      { kind: "pglite", dataDir: "memory:" },
      { ...TIMEOUTS, pgliteSnapshot: await pgliteSnapshot() },
    );
    return { kind, env: { WEBINAR_DATA_DIR: "memory:" }, handle, close: () => handle.close() };
  }
  const database = await createPostgresDatabase(label);
  const handle = await connectDatabase({ kind: "postgres", databaseUrl: database.url }, TIMEOUTS);
  return {
    kind,
    env: { DATABASE_URL: database.url },
    handle,
    async close() {
      await handle.close();
      await database.drop();
    },
  };
}
