import { describe, expect, it } from "vitest";
import { pollUntilDone, type PollResult } from "./polling";

function fakeTime() {
  let now = 0;
  const waits: number[] = [];
  return {
    waits,
    clock: () => now,
    sleep: async (ms: number) => {
      waits.push(ms);
      now += ms;
    },
  };
}

describe("pollUntilDone", () => {
  it("polls at intervalMs until done", async () => {
    const time = fakeTime();
    const answers: PollResult<string, number>[] = [
      { done: false, pending: 1 },
      { done: false, pending: 2 },
      { done: true, value: "FINAL" },
    ];
    const value = await pollUntilDone(
      async () => answers.shift()!,
      { intervalMs: 1000 },
      time,
      () => new Error("timeout"),
    );
    expect(value).toBe("FINAL");
    expect(time.waits).toEqual([1000, 1000]);
  });

  it("a server's Retry-After replaces the interval", async () => {
    const time = fakeTime();
    const answers: PollResult<string, number>[] = [
      { done: false, pending: 1, retryAfterMs: 7000 },
      { done: true, value: "x" },
    ];
    await pollUntilDone(
      async () => answers.shift()!,
      { intervalMs: 1000 },
      time,
      () => new Error("timeout"),
    );
    expect(time.waits).toEqual([7000]);
  });

  it("gives up with onTimeout(last pending) when the next wait would pass timeoutMs", async () => {
    const time = fakeTime();
    let polls = 0;
    const failure = pollUntilDone(
      async () => ({ done: false as const, pending: ++polls }),
      { intervalMs: 1000, timeoutMs: 2500 },
      time,
      (last, ms) => new Error(`gave up after ${last} polls, ${ms} ms`),
    );
    await expect(failure).rejects.toThrow("gave up after 3 polls, 2500 ms");
  });

  it.each([{ intervalMs: -1 }, { timeoutMs: Number.NaN }])("rejects %o with a RangeError", async (options) => {
    await expect(
      pollUntilDone(
        async () => ({ done: true as const, value: 1 }),
        options,
        fakeTime(),
        () => new Error(),
      ),
    ).rejects.toThrow(RangeError);
  });
});
