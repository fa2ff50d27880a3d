/**
 * The server's database, opened under the data directory's lock when it is kept on disk, and closed with it.
 */
import type { Tracer } from "@opentelemetry/api";
import type { ServerConfig } from "./config";
import { lockDataDir, type DataDirLock } from "./data-dir-lock";
import { connectDatabase, type DatabaseHandle } from "./db/connect";
import type { Logger } from "./logging/log";
import { startStep } from "./start-error";
import { tracedDatabase, type TracedDatabase } from "./tracing/traced-dialect";

/** The database of the server, under the data directory's lock when it is kept on disk. */
export interface Storage {
  database: DatabaseHandle;
  lock: DataDirLock | undefined;
  /** Whether the server opened the database itself (and so closes it). */
  owned: boolean;
  /** With tracing on, handles of the database whose statements are spans (tracing/traced-dialect.ts). */
  traced?: TracedDatabase | undefined;
}

/** Takes the data directory's lock (when on disk) and connects; releases the lock again when connecting fails. */
export async function openStorage(config: ServerConfig, logger: Logger, tracer: Tracer | undefined): Promise<Storage> {
  const { storage } = config;
  // Everything kept on disk (the embedded database, the key file) is used under the data directory's lock.
  const lock =
    storage.kind === "pglite" && storage.dataDir !== "memory:"
      ? await startStep("data directory", () => lockDataDir(storage.dataDir))
      : undefined;
  const traced = tracer === undefined ? undefined : tracedDatabase(tracer);
  try {
    const database = await startStep("database", () =>
      connectDatabase(storage, {
        connectTimeoutMs: config.dbConnectTimeoutMs,
        statementTimeoutMs: config.dbStatementTimeoutMs,
        poolMax: config.dbPoolMax,
        onPoolError: (error) => logger.warn({ err: error }, "database connection lost"),
        wrapDialect: traced?.wrapDialect,
      }),
    );
    return { database, lock, owned: true, traced };
  } catch (error) {
    await lock?.release().catch(() => undefined);
    throw error;
  }
}

/** Closes what openStorage opened (the database only when the server opened it). */
export async function closeStorage(storage: Storage): Promise<void> {
  if (storage.owned) await storage.database.close();
  await storage.lock?.release();
}
