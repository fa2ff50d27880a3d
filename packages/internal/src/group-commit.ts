/**
 * Group commit, the one way this project batches writes: calls that arrive while a write is in flight are
 * gathered and written together by the next write, each caller answered when the write that carried its call has
 * finished. A batch opens with the first call that finds none open (the one before written, or full), and is
 * written:
 *
 * - at once when no write is in flight: after the input the process has already received is handled (Node's
 *   `setImmediate`; elsewhere the next task), so calls that arrived together, such as requests read in one turn of
 *   the event loop, go in one write, and a lone call waits for nothing else;
 * - or, with a `lingerMs`, not before that long after it opened, however idle the writer: for writes no caller
 *   waits on (a log), where one write of everything from that time costs far less than a write per arrival, as
 *   PostgreSQL's `commit_delay` trades a little delay for fewer flushes;
 * - otherwise when the writes in flight have finished, so a batch grows with the load: the longer a write takes
 *   and the more calls arrive meanwhile, the more the next one carries;
 * - at the latest `maxWaitMs` after it opened, so a write that is slow or never answers (a database that stopped
 *   answering, waited out by the client's query limit) delays the calls after it by no more than that;
 * - at once when it holds `maxBatchSize` calls, since it can grow no further.
 *
 * A write that fails rejects every call it carried, with its error; a write that answers a call with an `Error`
 * rejects that call alone. `drain()` writes what is gathering now and
 * resolves once every call made so far is answered, which is how a process commits its pending batches before it
 * exits.
 */
// Node, Bun and Deno run setImmediate callbacks once the input already received has been handled; browsers and
// Workers have no setImmediate, and their next task comes after the input already queued too.
const afterReceivedInput: (run: () => void) => void =
  typeof setImmediate === "function" ? (run) => setImmediate(run) : (run) => setTimeout(run, 0);

/**
 * Writes a batch of calls; resolves one answer per call, in the calls' order. An `Error` in place of an answer
 * rejects that call alone (a call the write refused while the others were written).
 */
export type BatchWriter<Call, Answer> = (calls: readonly Call[]) => Promise<Array<Answer | Error>>;

/** What one write did, for metrics and logs. */
export interface BatchWritten {
  /** Calls the write carried. */
  size: number;
  /** Milliseconds the write took. */
  durationMs: number;
  /** The write's error when it failed (every call it carried was rejected with it). */
  error: unknown;
}

export interface GroupCommitOptions {
  /** Most calls one write carries; more that are waiting form the next batch. */
  maxBatchSize: number;
  /** Longest a gathered batch waits for the writes in flight before it is written anyway. */
  maxWaitMs: number;
  /**
   * How long a batch gathers before it is written even when no write is in flight (default 0: at once). Only for
   * calls whose callers do not wait for the answer: each call waits up to this long. At most `maxWaitMs`.
   */
  lingerMs?: number;
  /** Told of every write once it has finished or failed. Must not throw. */
  onWrite?: (written: BatchWritten) => void;
}

/** Submits one call; resolves its answer once the write that carried it has finished. */
export interface GroupCommit<Call, Answer> {
  (call: Call): Promise<Answer>;
  /** Writes what is gathering now; resolves once every call submitted so far is answered (or rejected). */
  drain(): Promise<void>;
}

/** Calls gathered for one write, and how to answer each caller. */
interface Batch<Call, Answer> {
  calls: Call[];
  waiting: Array<{ resolve(answer: Answer): void; reject(error: unknown): void }>;
  /** Whether its linger is over, so the end of the writes in flight may write it. */
  lingered: boolean;
}

/**
 * One per kind of write: each call is written by the next write of {@link BatchWriter}, together with the calls
 * that arrived with it.
 *
 * @example
 * const claim = createGroupCommit(writeClaims, { maxBatchSize: 100, maxWaitMs: 5 });
 * await Promise.all([claim(a), claim(b)]); // one write of [a, b]
 * await claim.drain(); // on shutdown: nothing left unwritten
 */
export function createGroupCommit<Call, Answer>(
  writeBatch: BatchWriter<Call, Answer>,
  { maxBatchSize, maxWaitMs, lingerMs = 0, onWrite }: GroupCommitOptions,
): GroupCommit<Call, Answer> {
  if (!(lingerMs >= 0 && lingerMs <= maxWaitMs))
    throw new RangeError(`lingerMs must be from 0 to maxWaitMs (${maxWaitMs}), got ${lingerMs}`);
  let writesInFlight = 0;
  let callsUnanswered = 0;
  let drained: Array<() => void> = [];
  // The batch new calls join, until it is written or full.
  let open: Batch<Call, Answer> | undefined;
  // The batch waiting for the writes in flight to end (it may still be open): written once they have, or sooner.
  let gathering: Batch<Call, Answer> | undefined;
  const writeGathering = () => {
    const batch = gathering;
    gathering = undefined;
    if (batch !== undefined) void write(batch);
  };
  const write = async (batch: Batch<Call, Answer>) => {
    if (open === batch) open = undefined;
    writesInFlight += 1;
    const started = performance.now();
    let error: unknown;
    try {
      const answers = await writeBatch(batch.calls);
      if (answers.length !== batch.calls.length)
        throw new TypeError(`the batch writer answered ${answers.length} of ${batch.calls.length} calls`);
      answers.forEach((answer, index) => {
        const waiting = batch.waiting[index]!;
        if (answer instanceof Error) waiting.reject(answer);
        else waiting.resolve(answer);
      });
    } catch (failure) {
      error = failure;
      for (const waiting of batch.waiting) waiting.reject(failure);
    } finally {
      writesInFlight -= 1;
      onWrite?.({ size: batch.calls.length, durationMs: performance.now() - started, error });
      if (writesInFlight === 0 && gathering?.lingered !== false) writeGathering();
    }
  };
  const openBatch = (): Batch<Call, Answer> => {
    const batch: Batch<Call, Answer> = { calls: [], waiting: [], lingered: lingerMs === 0 };
    // A batch opens only when the one before is full or written: a full one waits no longer.
    writeGathering();
    if (writesInFlight === 0 && lingerMs === 0) {
      afterReceivedInput(() => void write(batch));
      return batch;
    }
    gathering = batch;
    if (lingerMs > 0)
      setTimeout(() => {
        batch.lingered = true;
        if (gathering === batch && writesInFlight === 0) writeGathering();
      }, lingerMs).unref?.();
    // One timer per batch, not per call; a batch already written by then is left alone.
    setTimeout(() => {
      if (gathering === batch) writeGathering();
    }, maxWaitMs).unref?.();
    return batch;
  };
  const answered = () => {
    callsUnanswered -= 1;
    if (callsUnanswered > 0) return;
    const waiting = drained;
    drained = [];
    for (const resolve of waiting) resolve();
  };
  const submit = ((call: Call) => {
    callsUnanswered += 1;
    if (open === undefined || open.calls.length >= maxBatchSize) open = openBatch();
    const batch = open;
    const answer = new Promise<Answer>((resolve, reject) => {
      batch.calls.push(call);
      batch.waiting.push({ resolve, reject });
    });
    answer.then(answered, answered);
    return answer;
  }) as GroupCommit<Call, Answer>;
  submit.drain = () => {
    if (callsUnanswered === 0) return Promise.resolve();
    const done = new Promise<void>((resolve) => drained.push(resolve));
    writeGathering();
    return done;
  };
  return submit;
}
