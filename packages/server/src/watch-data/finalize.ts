/**
 * Live-data finalization. When the live ends, is cancelled or fails, its data is
 * FINALIZING and `webinars.live_finalize_due_at` is set to that time + `WEBINAR_FINALIZE_GRACE_SECONDS`. The
 * finalizer (every process runs one) claims due webinars with `FOR UPDATE SKIP LOCKED`, closes their open LIVE
 * playback sessions at their last heartbeat, sets `live_finalized_at` (only where it is still null) and records one
 * FINALIZE live event, all in one transaction. The state lives in the database, so a restart resumes it and
 * several processes on one database never finalize a webinar twice; the admin `finalize` runs the same step now.
 */
import type { Kysely, Transaction } from "kysely";
import type { ChangeFeed } from "../cache/change-feed";
import type { Database } from "../db/schema";
import type { Logger } from "../logging/log";
import { randomBase62, type Runtime } from "../runtime";

/** The ids of up to `batchSize` webinars due for finalization, locked; rows another process holds are skipped. */
async function claimDue(trx: Transaction<Database>, now: Date, batchSize: number): Promise<{ id: string }[]> {
  return trx
    .selectFrom("webinars")
    .select("id")
    .where("live_finalized_at", "is", null)
    .where("live_finalize_due_at", "is not", null)
    .where("live_finalize_due_at", "<=", now)
    .orderBy("live_finalize_due_at")
    .limit(batchSize)
    .forUpdate()
    .skipLocked()
    .execute();
}

/**
 * Finalizes one webinar whose row the caller has locked (or claimed); returns false when it already was final
 * (idempotent) or has not ended.
 */
export async function finalizeLockedWebinar(
  trx: Transaction<Database>,
  webinarId: string,
  now: Date,
  runtime: Runtime,
): Promise<boolean> {
  const marked = await trx
    .updateTable("webinars")
    .set({ live_finalized_at: now })
    .where("id", "=", webinarId)
    .where("live_finalized_at", "is", null)
    .where("live_status", "in", ["ENDED", "CANCELLED", "FAILED"])
    .returning("live_status")
    .executeTakeFirst();
  if (marked === undefined) return false;
  // Open LIVE sessions end at their last heartbeat. They are locked by id first: the order in which a heartbeat
  // batch locks sessions (watch-data/heartbeat-credits.ts), so the two cannot deadlock.
  await trx
    .updateTable("playback_sessions")
    .set((eb) => ({ ended_at: eb.ref("last_activity_at") }))
    .where("id", "in", (eb) =>
      eb
        .selectFrom("playback_sessions")
        .select("id")
        .where("webinar_id", "=", webinarId)
        .where("mode", "=", "LIVE")
        .where("ended_at", "is", null)
        .orderBy("id")
        .forUpdate(),
    )
    .execute();
  await trx
    .insertInto("webinar_live_events")
    .values({
      id: `wle_${randomBase62(runtime, 16)}`,
      webinar_id: webinarId,
      action: "FINALIZE",
      live_status: marked.live_status,
      occurred_at: now,
    })
    .execute();
  return true;
}

/**
 * Finalizes every webinar due at the runtime's now (in batches); returns how many this call finalized. A batch
 * that finalized any announces the `webinars` topic.
 */
export async function finalizeDueWebinars(
  db: Kysely<Database>,
  changes: ChangeFeed,
  runtime: Runtime,
  batchSize = 50,
): Promise<number> {
  let total = 0;
  for (;;) {
    const done = await db.transaction().execute(async (trx) => {
      const now = new Date(runtime.now());
      const due = await claimDue(trx, now, batchSize);
      let count = 0;
      for (const { id } of due) if (await finalizeLockedWebinar(trx, id, now, runtime)) count += 1;
      if (count > 0) await changes.announce(trx, "webinars");
      return { count, claimed: due.length };
    });
    if (done.count > 0) changes.changed("webinars");
    total += done.count;
    if (done.claimed < batchSize) return total;
  }
}

export interface Finalizer {
  /** One pass now (tests, admin); the same as the timer's. */
  runOnce(): Promise<number>;
  stop(): Promise<void>;
}

/** Runs a pass at start and then every `intervalMs`; passes never overlap; failures are logged and retried. */
export function startFinalizer(
  db: Kysely<Database>,
  changes: ChangeFeed,
  runtime: Runtime,
  logger: Logger,
  intervalMs: number,
): Finalizer {
  let running: Promise<number> | undefined;
  let stopped = false;
  const runOnce = (): Promise<number> => {
    running ??= finalizeDueWebinars(db, changes, runtime)
      .then((count) => {
        if (count > 0) logger.info({ count }, "live data finalized");
        return count;
      })
      .finally(() => {
        running = undefined;
      });
    return running;
  };
  const tick = () => {
    if (stopped) return;
    runOnce().catch((error: unknown) =>
      logger.warn({ err: error }, "live-data finalization pass failed; retrying later"),
    );
  };
  const timer = setInterval(tick, intervalMs);
  timer.unref();
  setImmediate(tick);
  return {
    runOnce,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running?.catch(() => undefined);
    },
  };
}
