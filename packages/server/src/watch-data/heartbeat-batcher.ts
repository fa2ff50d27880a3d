/**
 * Group commit of heartbeat credits, through the project's one group commit (`createGroupCommit` of
 * @org/webinar-internal): the heartbeats and stops that arrive while a batch is committing gather into the next
 * batch, which one transaction credits (heartbeat-batch.ts). With nothing committing, a call goes out as soon as
 * the current synchronous work ends, alone or with whatever arrived with it; under load, batches grow with the time a
 * commit takes, up to MAX_BATCH_SIZE. Each caller is answered once its batch has committed; when the transaction
 * fails, every call of that batch fails with its error and nothing of it is credited.
 *
 * One batch commits at a time while commits answer within MAX_WAIT_MS. A commit that stalls (a lock held
 * elsewhere, a slow disk) no longer holds the next batch back for as long as it takes: after MAX_WAIT_MS the next
 * batch commits beside it. That is safe because every batch takes its row locks in one global order
 * (watch-data/heartbeat-credits.ts), which is also what lets several server processes credit the same webinar.
 */
import { type BatchWritten, createGroupCommit } from "@org/webinar-internal/group-commit";
import type { Kysely } from "kysely";
import type { Database } from "../db/schema";
import type { Logger } from "../logging/log";
import { type InBatchSpan, untracedBatches } from "../tracing/batch-spans";
import type { Runtime } from "../runtime";
import { commitHeartbeatBatch, type HeartbeatCall, type PlaybackReport } from "./heartbeat-batch";

/** Most calls one transaction credits; more that are waiting form the next batch. */
export const MAX_BATCH_SIZE = 256;

/**
 * Longest a gathered batch waits for the commit in flight. Far above a healthy commit (about a millisecond), so
 * batches still commit one at a time; far below a heartbeat's interval, so a stalled commit delays the others by
 * little.
 */
export const MAX_WAIT_MS = 100;

export interface HeartbeatBatcher {
  /** Credits a heartbeat or stop received now; resolves once its batch has committed. */
  credit(call: Omit<HeartbeatCall, "at">): Promise<PlaybackReport>;
  /** Commits what is gathering; resolves once every call made so far is answered (the server's shutdown). */
  drain(): Promise<void>;
}

export function createHeartbeatBatcher(deps: {
  db: Kysely<Database>;
  runtime: Runtime;
  logger: Logger;
  /** The heartbeat interval the server announces (crediting-rules.ts): one heartbeat credits at most twice it. */
  heartbeatIntervalSeconds?: number | undefined;
  /** Told of every batch once it has committed or failed (the metrics). */
  onWrite?: ((written: BatchWritten) => void) | undefined;
  /** With tracing on: each batch in one span, its statements under it. */
  inBatchSpan?: InBatchSpan | undefined;
}): HeartbeatBatcher {
  const { db, runtime, logger, inBatchSpan = untracedBatches(db) } = deps;
  const commit = createGroupCommit<HeartbeatCall, PlaybackReport>(
    (calls) =>
      inBatchSpan("heartbeat batch", calls.length, (batchDb) =>
        commitHeartbeatBatch(batchDb, calls, deps.heartbeatIntervalSeconds),
      ),
    {
      maxBatchSize: MAX_BATCH_SIZE,
      maxWaitMs: MAX_WAIT_MS,
      onWrite(written) {
        if (written.error === undefined) logger.debug({ heartbeats: written.size }, "heartbeat batch committed");
        else
          logger.warn({ heartbeats: written.size, err: written.error }, "heartbeat batch failed: none of it credited");
        deps.onWrite?.(written);
      },
    },
  );
  return { credit: (call) => commit({ ...call, at: runtime.now() }), drain: () => commit.drain() };
}
