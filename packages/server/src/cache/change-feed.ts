/**
 * How every process learns that cached data changed. A write to what a cache holds runs in a transaction that
 * also sends `NOTIFY webinar_changes, '<topic>'`; PostgreSQL delivers it, when the transaction commits, to every
 * process listening on one dedicated connection (postgres-listener.ts), and the embedded database to every
 * listener inside this process (PGlite's own LISTEN). Each process then clears that topic's caches. The process
 * that made the change clears them itself right after the commit, so its next request already reads anew.
 *
 * Staleness bound (packages/server/README.md, "Caches"): a change reaches the caches of the process that made it
 * at once, and every other process within one second: at once while its listening connection is up, and while
 * it is down (found within PING_INTERVAL_MS + PING_TIMEOUT_MS of losing it) caches are cleared and bypassed,
 * every read going to the database, until it listens again.
 */
import type { Kysely, Transaction } from "kysely";
import { sql } from "kysely";
import type { Database } from "../db/schema";

/** What a change concerns: clearing that topic's caches is enough for every process to read it anew. */
export const CHANGE_TOPICS = ["credentials", "blockedTerms", "webinars"] as const;
export type ChangeTopic = (typeof CHANGE_TOPICS)[number];

/** The channel of the notifications; its payload is a {@link ChangeTopic}. */
export const CHANGE_CHANNEL = "webinar_changes";

/** A topic that changed, or `"all"`: every cache must go (the listening connection was lost or came back). */
export type ChangeSignal = ChangeTopic | "all";

/** Told of each read of a cache of `topic`: answered from memory (`hit`) or sent to the database. Must not throw. */
export type CacheReadObserver = (topic: ChangeTopic, hit: boolean) => void;

/** Where the notifications come from: the state of the listening connection and the topics it hears. */
export interface ChangeSource {
  /** Whether notifications are being heard now; while not, caches must not answer. */
  readonly listening: boolean;
  close(): Promise<void>;
}

/** The change feed of one server; see the module comment. */
export interface ChangeFeed {
  /** Whether cached values may answer now. */
  readonly listening: boolean;
  /** Calls `listener` with each change signal, from this process's writes and from other processes. */
  subscribe(listener: (signal: ChangeSignal) => void): void;
  /**
   * Runs `work` in a transaction that announces a change of `topic` to every process when it commits, then
   * clears this process's caches of `topic`. Resolves `work`'s result.
   */
  write<T>(topic: ChangeTopic, work: (trx: Transaction<Database>) => Promise<T>): Promise<T>;
  /** Announces a change of `topic` in a transaction the caller runs (clear the local caches after its commit). */
  announce(trx: Transaction<Database>, topic: ChangeTopic): Promise<void>;
  /** Clears this process's caches of `topic` (after a commit that announced it). */
  changed(topic: ChangeTopic): void;
  /** The caches tell of each read here; the feed hands it to the observer it was created with (the metrics). */
  noteRead: CacheReadObserver;
  close(): Promise<void>;
}

export function isChangeTopic(value: unknown): value is ChangeTopic {
  return (CHANGE_TOPICS as readonly unknown[]).includes(value);
}

/**
 * The feed over a database and its notification source. `listen` starts the source with the callback that
 * receives each signal. `onCacheRead` is told of each read of the caches that use this feed.
 */
export async function createChangeFeed(
  db: Kysely<Database>,
  listen: (signal: (signal: ChangeSignal) => void) => Promise<ChangeSource>,
  onCacheRead: CacheReadObserver = () => undefined,
): Promise<ChangeFeed> {
  const listeners: Array<(signal: ChangeSignal) => void> = [];
  const emit = (signal: ChangeSignal) => {
    for (const listener of listeners) listener(signal);
  };
  const source = await listen(emit);
  const announce = async (trx: Transaction<Database>, topic: ChangeTopic) => {
    await sql`select pg_notify(${CHANGE_CHANNEL}, ${topic})`.execute(trx);
  };
  return {
    get listening() {
      return source.listening;
    },
    subscribe: (listener) => {
      listeners.push(listener);
    },
    announce,
    changed: (topic) => emit(topic),
    noteRead: onCacheRead,
    async write(topic, work) {
      const result = await db.transaction().execute(async (trx) => {
        const value = await work(trx);
        await announce(trx, topic);
        return value;
      });
      emit(topic);
      return result;
    },
    close: () => source.close(),
  };
}
