/** The change feed of a server's database: PGlite's own notifications, or PostgreSQL's on a connection of its own. */
import type { StorageConfig } from "../config";
import type { DatabaseHandle } from "../db/connect";
import type { Logger } from "../logging/log";
import { type CacheReadObserver, createChangeFeed, type ChangeFeed } from "./change-feed";
import { listenOnPglite } from "./pglite-listener";
import { listenOnPostgres } from "./postgres-listener";

export function openChangeFeed(
  storage: StorageConfig,
  database: DatabaseHandle,
  logger: Logger,
  onCacheRead?: CacheReadObserver,
): Promise<ChangeFeed> {
  return createChangeFeed(
    database.db,
    (signal) => {
      if (database.pglite !== undefined) return listenOnPglite(database.pglite, signal);
      if (storage.kind !== "postgres") throw new Error("a PostgreSQL database needs its URL to listen for changes");
      return listenOnPostgres(storage.databaseUrl, signal, logger);
    },
    onCacheRead,
  );
}
