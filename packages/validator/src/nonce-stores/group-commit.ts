/**
 * Group commit: calls that arrive while a write is in flight are gathered and written together by the next write,
 * each caller answered when the write that carried its call has finished. DataLoader does the batching (its cache
 * off, so every call is written); the schedule here decides when a gathered batch is written:
 *
 * - at once (after the current synchronous work) when no write is in flight, so a lone call waits for nothing;
 * - otherwise when the writes in flight have finished, so a batch grows with the load: the longer a write takes
 *   and the more calls arrive meanwhile, the more the next one carries;
 * - at the latest `maxWaitMs` after it opened, so a write that is slow or never answers (a database that stopped
 *   answering, waited out by the client's query limit) delays the calls after it by no more than that;
 * - at once when it holds `maxBatchSize` calls, since it can grow no further.
 *
 * A write that fails rejects every call it carried, with its error.
 */
import DataLoader from "dataloader";

/** Writes a batch of calls; resolves one answer per call, in the calls' order. */
export type BatchWriter<Call, Answer> = (calls: readonly Call[]) => Promise<Answer[]>;

/**
 * One function per store: each call is written by the next write of {@link BatchWriter}, together with the calls
 * that arrived with it.
 *
 * @example
 * const claim = createGroupCommit(writeClaims, { maxBatchSize: 100, maxWaitMs: 5 });
 * await Promise.all([claim(a), claim(b)]); // one write of [a, b]
 */
export function createGroupCommit<Call, Answer>(
  writeBatch: BatchWriter<Call, Answer>,
  { maxBatchSize, maxWaitMs }: { maxBatchSize: number; maxWaitMs: number },
): (call: Call) => Promise<Answer> {
  let writesInFlight = 0;
  // The batch gathering while writes are in flight: its dispatch, run once they end or when it is full.
  let gathering: (() => void) | undefined;
  const dispatchGathering = () => {
    const dispatch = gathering;
    gathering = undefined;
    dispatch?.();
  };
  const loader = new DataLoader<Call, Answer>(
    async (calls) => {
      writesInFlight += 1;
      try {
        return await writeBatch(calls);
      } finally {
        writesInFlight -= 1;
        if (writesInFlight === 0) dispatchGathering();
      }
    },
    {
      cache: false,
      maxBatchSize,
      batchScheduleFn: (dispatch) => {
        // DataLoader opens a batch only when the one before is full or written: a full one waits no longer.
        dispatchGathering();
        if (writesInFlight === 0) {
          queueMicrotask(dispatch);
          return;
        }
        gathering = dispatch;
        // One timer per batch, not per call; a batch already written by then is left alone.
        setTimeout(() => {
          if (gathering === dispatch) dispatchGathering();
        }, maxWaitMs).unref?.();
      },
    },
  );
  return (call) => loader.load(call);
}
