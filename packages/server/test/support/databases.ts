/**
 * The databases every suite runs against: the embedded PGlite (started from the snapshot made by
 * global-setup.ts) and the machine's PostgreSQL on 127.0.0.1:5432 (trust auth), where each test file creates a
 * database of its own with a unique name and drops it afterwards. WEBINAR_TEST_DATABASES=pglite (or postgres)
 * runs one of the two only.
 */
import { readFile } from "node:fs/promises";
import { createPostgresDatabase, POSTGRES_ADMIN_URL } from "@org/webinar-test-support/postgres-database";
import { inject } from "vitest";
import { connectDatabase, type DatabaseHandle } from "../../src/db/connect";

export type DatabaseKind = "pglite" | "postgres";

/** The kinds this run covers. */
export const DATABASE_KINDS: DatabaseKind[] = (process.env.WEBINAR_TEST_DATABASES ?? "pglite,postgres")
  .split(",")
  .map((kind) => kind.trim())
  .filter((kind): kind is DatabaseKind => kind === "pglite" || kind === "postgres");

export { createPostgresDatabase, POSTGRES_ADMIN_URL };

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
