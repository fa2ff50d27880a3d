/**
 * Group commit of heartbeat credits. Every heartbeat and stop goes through one DataLoader (without its cache): the
 * calls that arrive while a batch is committing gather into the next batch, which one transaction credits
 * (heartbeat-batch.ts). The window tunes itself: with nothing committing, a call goes out as soon as the current
 * turn of the event loop ends, alone or with whatever arrived in that turn; under load, batches grow with the time
 * a commit takes, up to MAX_BATCH_SIZE. Each caller is answered once its batch has committed; when the transaction
 * fails, every call of that batch fails with its error and nothing of it is credited.
 */
import DataLoader from "dataloader";
import type { BatchWritten } from "@org/webinar-validator";
import type { Kysely } from "kysely";
import type { Database } from "../db/schema";
import type { Logger } from "../log";
import type { Runtime } from "../runtime";
import { commitHeartbeatBatch, type HeartbeatCall, type PlaybackReport } from "./heartbeat-batch";

/** Most calls one transaction credits; more that are waiting form the next batch. */
export const MAX_BATCH_SIZE = 256;

export interface HeartbeatBatcher {
  /** Credits a heartbeat or stop received now; resolves once its batch has committed. */
  credit(call: Omit<HeartbeatCall, "at">): Promise<PlaybackReport>;
  /** Resolves once every call made so far is answered (its batch committed or failed): shutdown waits for it. */
  drain(): Promise<void>;
}

/**
 * DataLoader's `batchScheduleFn` for a group commit with one batch committing at a time: a batch formed while none
 * is committing goes out at once (after this turn of the event loop), one formed while another commits goes out
 * when that one has finished, in the order they formed.
 */
function oneCommitAtATime(): { schedule: (dispatch: () => void) => void; finished: () => void } {
  let committing = false;
  const waiting: (() => void)[] = [];
  return {
    schedule(dispatch) {
      if (committing) {
        waiting.push(dispatch);
        return;
      }
      committing = true;
      setImmediate(dispatch);
    },
    finished() {
      const next = waiting.shift();
      if (next === undefined) committing = false;
      else setImmediate(next);
    },
  };
}

export function createHeartbeatBatcher(deps: {
  db: Kysely<Database>;
  runtime: Runtime;
  logger: Logger;
  /** Told of every batch once it has committed or failed (the metrics). */
  onWrite?: ((written: BatchWritten) => void) | undefined;
}): HeartbeatBatcher {
  const commits = oneCommitAtATime();
  const unanswered = new Set<Promise<unknown>>();
  const loader = new DataLoader<HeartbeatCall, PlaybackReport>(
    async (calls) => {
      const started = performance.now();
      let error: unknown;
      try {
        const answers = await commitHeartbeatBatch(deps.db, calls);
        deps.logger.debug({ heartbeats: calls.length }, "heartbeat batch committed");
        return answers;
      } catch (failure) {
        error = failure;
        deps.logger.warn({ heartbeats: calls.length, err: failure }, "heartbeat batch failed: none of it credited");
        throw failure;
      } finally {
        deps.onWrite?.({ size: calls.length, durationMs: performance.now() - started, error });
        commits.finished();
      }
    },
    { cache: false, maxBatchSize: MAX_BATCH_SIZE, batchScheduleFn: commits.schedule },
  );
  return {
    credit(call) {
      const answer = loader.load({ ...call, at: deps.runtime.now() });
      const settled: Promise<unknown> = answer.then(
        () => unanswered.delete(settled),
        () => unanswered.delete(settled),
      );
      unanswered.add(settled);
      return answer;
    },
    drain: async () => {
      await Promise.all(unanswered);
    },
  };
}
