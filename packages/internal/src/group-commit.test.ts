/**
 * When group commit writes a batch: a lone call at once, calls that arrive during a write together after it (or
 * after maxWaitMs when it does not finish), a full batch without waiting; and a failing write rejects exactly the
 * calls it carried. The writer here records each batch and finishes when the test says so.
 */
import { describe, expect, it } from "vitest";
import { createGroupCommit } from "./group-commit";

/** A writer whose writes the test finishes one by one; answers each call with its double. */
function heldWriter() {
  const writes: Array<{ calls: number[]; finish(): void; fail(error: Error): void }> = [];
  const write = (calls: readonly number[]) =>
    new Promise<number[]>((resolve, reject) => {
      writes.push({ calls: [...calls], finish: () => resolve(calls.map((call) => call * 2)), fail: reject });
    });
  return { writes, write };
}

/**
 * Lets queued microtasks, promise jobs and the group commit's `setImmediate` run. A timer alone is not enough: on a
 * busy machine a 0 ms timer can fire before an immediate queued earlier, so the immediate is awaited after it.
 */
const settle = () => new Promise((resolve) => setTimeout(() => setImmediate(resolve), 0));

describe("createGroupCommit", () => {
  it("a lone call is written at once, by a write of its own", async () => {
    const { writes, write } = heldWriter();
    const commit = createGroupCommit(write, { maxBatchSize: 10, maxWaitMs: 1000 });
    const answer = commit(1);
    await settle();
    expect(writes.map((batch) => batch.calls)).toEqual([[1]]);
    writes[0]!.finish();
    expect(await answer).toBe(2);
  });

  it("calls made together go in one write", async () => {
    const { writes, write } = heldWriter();
    const commit = createGroupCommit(write, { maxBatchSize: 10, maxWaitMs: 1000 });
    const answers = Promise.all([1, 2, 3].map(commit));
    await settle();
    expect(writes.map((batch) => batch.calls)).toEqual([[1, 2, 3]]);
    writes[0]!.finish();
    expect(await answers).toEqual([2, 4, 6]);
  });

  it("calls arriving while a write is in flight gather, and are written together once it has finished", async () => {
    const { writes, write } = heldWriter();
    const commit = createGroupCommit(write, { maxBatchSize: 10, maxWaitMs: 1000 });
    const first = commit(1);
    await settle();
    const later = [commit(2), settle().then(() => commit(3)), settle().then(() => commit(4))];
    await settle();
    await settle();
    expect(writes).toHaveLength(1);
    writes[0]!.finish();
    expect(await first).toBe(2);
    await settle();
    expect(writes.map((batch) => batch.calls)).toEqual([[1], [2, 3, 4]]);
    writes[1]!.finish();
    expect(await Promise.all(later)).toEqual([4, 6, 8]);
  });

  it("a full batch is written without waiting for the write in flight; the rest keeps gathering", async () => {
    const { writes, write } = heldWriter();
    const commit = createGroupCommit(write, { maxBatchSize: 3, maxWaitMs: 1000 });
    const first = commit(0);
    await settle();
    const later = [1, 2, 3, 4, 5].map(commit);
    await settle();
    expect(writes.map((batch) => batch.calls)).toEqual([[0], [1, 2, 3]]);
    writes[0]!.finish();
    await settle();
    expect(writes).toHaveLength(2);
    writes[1]!.finish();
    await settle();
    expect(writes.map((batch) => batch.calls)).toEqual([[0], [1, 2, 3], [4, 5]]);
    writes[2]!.finish();
    expect([await first, ...(await Promise.all(later))]).toEqual([0, 2, 4, 6, 8, 10]);
  });

  it("a failing write rejects every call it carried, and only those", async () => {
    const { writes, write } = heldWriter();
    const commit = createGroupCommit(write, { maxBatchSize: 10, maxWaitMs: 1000 });
    const failed = [1, 2, 3].map((call) =>
      commit(call).then(
        () => "written",
        (error: Error) => error.message,
      ),
    );
    await settle();
    const next = commit(4);
    writes[0]!.fail(new Error("connection lost"));
    expect(await Promise.all(failed)).toEqual(["connection lost", "connection lost", "connection lost"]);
    await settle();
    expect(writes.map((batch) => batch.calls)).toEqual([[1, 2, 3], [4]]);
    writes[1]!.finish();
    expect(await next).toBe(8);
  });

  it("an Error in place of an answer rejects that call alone; the others of the write get their answers", async () => {
    const commit = createGroupCommit(
      async (calls: readonly number[]) => calls.map((call) => (call < 0 ? new Error(`refused ${call}`) : call * 2)),
      { maxBatchSize: 10, maxWaitMs: 1000 },
    );
    const answers = await Promise.allSettled([commit(1), commit(-2), commit(3)]);
    expect(answers.map((answer) => (answer.status === "fulfilled" ? answer.value : answer.reason.message))).toEqual([
      2,
      "refused -2",
      6,
    ]);
  });

  it("a write that answers fewer calls than it carried rejects every one of them", async () => {
    const commit = createGroupCommit(async (calls: readonly number[]) => calls.slice(1), {
      maxBatchSize: 10,
      maxWaitMs: 1000,
    });
    const answers = await Promise.allSettled([commit(1), commit(2)]);
    expect(answers.map((answer) => (answer.status === "rejected" ? answer.reason.message : answer.value))).toEqual([
      "the batch writer answered 1 of 2 calls",
      "the batch writer answered 1 of 2 calls",
    ]);
  });

  it("calls waiting on a write that does not finish go in a write of their own after maxWaitMs", async () => {
    const { writes, write } = heldWriter();
    const commit = createGroupCommit(write, { maxBatchSize: 10, maxWaitMs: 20 });
    void commit(1);
    await settle();
    const waiting = [commit(2), commit(3)];
    await settle();
    expect(writes.map((batch) => batch.calls)).toEqual([[1]]);
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(writes.map((batch) => batch.calls)).toEqual([[1], [2, 3]]);
    writes[1]!.finish();
    expect(await Promise.all(waiting)).toEqual([4, 6]);
  });
});

describe("createGroupCommit: drain and onWrite", () => {
  it("drain writes the gathering batch and resolves once every call is answered", async () => {
    const { writes, write } = heldWriter();
    const commit = createGroupCommit(write, { maxBatchSize: 10, maxWaitMs: 60_000 });
    const first = commit(1);
    await settle();
    const second = commit(2);
    let drained = false;
    const drain = commit.drain().then(() => {
      drained = true;
    });
    await settle();
    // The gathering batch went out without waiting for the write in flight or for maxWaitMs.
    expect(writes.map((batch) => batch.calls)).toEqual([[1], [2]]);
    writes[0]!.finish();
    await settle();
    expect(drained).toBe(false);
    writes[1]!.fail(new Error("database gone"));
    await drain;
    expect(await first).toBe(2);
    await expect(second).rejects.toThrow("database gone");
  });

  it("drain with nothing submitted resolves at once", async () => {
    const { write } = heldWriter();
    await createGroupCommit(write, { maxBatchSize: 10, maxWaitMs: 10 }).drain();
  });

  it("onWrite is told each write's size and error", async () => {
    const { writes, write } = heldWriter();
    const seen: Array<{ size: number; failed: boolean }> = [];
    const commit = createGroupCommit(write, {
      maxBatchSize: 10,
      maxWaitMs: 1000,
      onWrite: ({ size, error, durationMs }) => {
        expect(durationMs).toBeGreaterThanOrEqual(0);
        seen.push({ size, failed: error !== undefined });
      },
    });
    const answers = Promise.allSettled([commit(1), commit(2)]);
    await settle();
    writes[0]!.fail(new Error("no"));
    await answers;
    const next = commit(3);
    await settle();
    writes[1]!.finish();
    await next;
    expect(seen).toEqual([
      { size: 2, failed: true },
      { size: 1, failed: false },
    ]);
  });
});

describe("createGroupCommit: lingerMs, for writes no caller waits on", () => {
  const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  it("a lone call waits out the linger, and every call of that time shares its write", async () => {
    const { writes, write } = heldWriter();
    const commit = createGroupCommit(write, { maxBatchSize: 10, maxWaitMs: 1000, lingerMs: 60 });
    const first = commit(1);
    await settle();
    expect(writes).toHaveLength(0);
    await wait(20);
    const second = commit(2);
    await wait(80);
    expect(writes.map((batch) => batch.calls)).toEqual([[1, 2]]);
    writes[0]!.finish();
    expect(await Promise.all([first, second])).toEqual([2, 4]);
  });

  it("the end of the write in flight does not cut the next batch's linger short", async () => {
    const { writes, write } = heldWriter();
    const commit = createGroupCommit(write, { maxBatchSize: 10, maxWaitMs: 1000, lingerMs: 40 });
    void commit(1);
    await wait(60);
    const later = commit(2);
    writes[0]!.finish();
    await settle();
    expect(writes.map((batch) => batch.calls)).toEqual([[1]]);
    const last = commit(3);
    await wait(60);
    expect(writes.map((batch) => batch.calls)).toEqual([[1], [2, 3]]);
    writes[1]!.finish();
    expect(await Promise.all([later, last])).toEqual([4, 6]);
  });

  it("a batch whose linger ends while a write is in flight is written once that write ends", async () => {
    const { writes, write } = heldWriter();
    const commit = createGroupCommit(write, { maxBatchSize: 10, maxWaitMs: 1000, lingerMs: 20 });
    void commit(1);
    await wait(40);
    const later = commit(2);
    await wait(40);
    expect(writes.map((batch) => batch.calls)).toEqual([[1]]);
    writes[0]!.finish();
    await settle();
    expect(writes.map((batch) => batch.calls)).toEqual([[1], [2]]);
    writes[1]!.finish();
    expect(await later).toBe(4);
  });

  it("drain writes a lingering batch at once", async () => {
    const { writes, write } = heldWriter();
    const commit = createGroupCommit(write, { maxBatchSize: 10, maxWaitMs: 60_000, lingerMs: 60_000 });
    const answer = commit(1);
    const drained = commit.drain();
    await settle();
    expect(writes.map((batch) => batch.calls)).toEqual([[1]]);
    writes[0]!.finish();
    await drained;
    expect(await answer).toBe(2);
  });

  it.each([-1, 1001])("lingerMs %d, outside 0 to maxWaitMs, is refused", (lingerMs) => {
    const { write } = heldWriter();
    expect(() => createGroupCommit(write, { maxBatchSize: 10, maxWaitMs: 1000, lingerMs })).toThrow(RangeError);
  });
});
