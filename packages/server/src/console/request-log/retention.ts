/**
 * The request log's bounded retention, run every WEBINAR_REQUEST_LOG_PRUNE_SECONDS (30 by default): rows older
 * than the retention (WEBINAR_REQUEST_LOG_RETENTION_DAYS, 7 by default) go, and each merchant keeps at most its
 * newest WEBINAR_REQUEST_LOG_MAX_ROWS rows (100,000 by default) of each class: verified requests, and requests
 * refused before a signature checked out. The classes are capped apart, so a flood of refusals naming a
 * merchant's key never pushes one of its verified requests out. A class's cap is found through the index
 * (merchant_id, verified, id desc): the id of the cap-th newest row, then deletes below it.
 *
 * Every delete removes at most `batchRows` rows (5,000), so each statement ends well within the statement
 * timeout however much is due, and the run loops until nothing due is left: after an outage (the server or the
 * database down for days) it catches up in one run. On PostgreSQL one process prunes at a time: the run holds a
 * session advisory lock, and a process that finds it taken leaves the run to its holder. The embedded database
 * is one process's (its data-directory lock), so it needs no lock, and its one connection is taken per statement,
 * never for the whole run, so requests go on between the deletes.
 */
import { type Kysely, type RawBuilder, sql } from "kysely";
import type { Database } from "../../db/schema";

export interface RetentionSettings {
  retentionDays: number;
  /** The cap of each class, per merchant. */
  maxRowsPerMerchant: number;
  /** Most rows one delete removes; 5,000 unless a test wants more batches. */
  batchRows?: number;
}

export type PruneOutcome =
  | { kind: "pruned"; deleted: number; statements: number }
  /** Another process holds the lock: it prunes. */
  | { kind: "skipped" };

const DEFAULT_BATCH_ROWS = 5000;
/** The advisory lock of the request log's retention ("reql"), the same in every process of the database. */
export const RETENTION_LOCK_KEY = 0x7265716c;

type Executor = Kysely<Database>;

/** Deletes the rows `due` selects, at most `batchRows` per statement, until a statement finds fewer. */
async function deleteInBatches(
  db: Executor,
  due: (limit: number) => RawBuilder<unknown>,
  batchRows: number,
  tally: { deleted: number; statements: number },
): Promise<void> {
  for (;;) {
    const result = await sql`
      delete from open_api_request_log where id in (${due(batchRows)})
    `.execute(db);
    const deleted = Number(result.numAffectedRows ?? 0);
    tally.deleted += deleted;
    tally.statements += 1;
    if (deleted < batchRows) return;
  }
}

async function pruneAll(db: Executor, settings: RetentionSettings, nowMs: number) {
  const batchRows = settings.batchRows ?? DEFAULT_BATCH_ROWS;
  const tally = { deleted: 0, statements: 0 };
  const cutoff = new Date(nowMs - settings.retentionDays * 86_400_000).toISOString();
  await deleteInBatches(
    db,
    (limit) => sql`select id from open_api_request_log where answered_at < ${cutoff}::timestamptz limit ${limit}`,
    batchRows,
    tally,
  );
  const merchants = await db.selectFrom("merchants").select("id").execute();
  for (const { id: merchantId } of merchants) {
    for (const verified of [true, false]) {
      const oldestKept = await db
        .selectFrom("open_api_request_log")
        .select((eb) => eb.cast<string>("id", "text").as("row_id"))
        .where("merchant_id", "=", merchantId)
        .where("verified", "=", verified)
        .orderBy("id", "desc")
        .offset(settings.maxRowsPerMerchant - 1)
        .limit(1)
        .executeTakeFirst();
      if (oldestKept === undefined) continue;
      await deleteInBatches(
        db,
        (limit) => sql`
          select id from open_api_request_log
          where merchant_id = ${merchantId} and verified = ${verified} and id < ${oldestKept.row_id}::bigint
          order by id limit ${limit}`,
        batchRows,
        tally,
      );
    }
  }
  return tally;
}

/**
 * One run of the retention; `exclusive` (PostgreSQL) takes the advisory lock first, on a connection of its own.
 *
 * @example
 * await pruneRequestLog(db, { retentionDays: 7, maxRowsPerMerchant: 100_000 }, Date.now(), { exclusive: true });
 */
export async function pruneRequestLog(
  db: Kysely<Database>,
  settings: RetentionSettings,
  nowMs: number,
  { exclusive }: { exclusive: boolean },
): Promise<PruneOutcome> {
  if (!exclusive) return { kind: "pruned", ...(await pruneAll(db, settings, nowMs)) };
  return db.connection().execute(async (connection) => {
    const lock = await sql<{ taken: boolean }>`select pg_try_advisory_lock(${RETENTION_LOCK_KEY}) as taken`.execute(
      connection,
    );
    if (lock.rows[0]?.taken !== true) return { kind: "skipped" } as const;
    try {
      return { kind: "pruned", ...(await pruneAll(connection, settings, nowMs)) } as const;
    } finally {
      await sql`select pg_advisory_unlock(${RETENTION_LOCK_KEY})`.execute(connection);
    }
  });
}
