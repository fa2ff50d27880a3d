import { describe, expect, it } from "vitest";
import { createConcurrencyLimit } from "./concurrency-limit";

class Busy extends Error {}

/** A promise with its resolve, to hold work open as long as a test needs. */
function gate(): { opened: Promise<void>; open: () => void } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

describe("createConcurrencyLimit", () => {
  const limit = (running: number, waiting: number) =>
    createConcurrencyLimit({ running, waiting, refuse: () => new Busy("busy") });

  it("runs up to `running` at once per key, lines up `waiting` more, and refuses beyond them", async () => {
    const limits = limit(2, 1);
    const first = await limits.acquire("m1");
    const second = await limits.acquire("m1");
    let thirdStarted = false;
    const third = limits.acquire("m1").then((release) => {
      thirdStarted = true;
      return release;
    });
    await expect(limits.acquire("m1")).rejects.toBeInstanceOf(Busy);
    await Promise.resolve();
    expect(thirdStarted).toBe(false);
    first();
    const release = await third;
    expect(thirdStarted).toBe(true);
    second();
    release();
    (await limits.acquire("m1"))();
  });

  it("keys are bounded apart: one merchant's full line does not refuse another's", async () => {
    const limits = limit(1, 0);
    const held = await limits.acquire("m1");
    await expect(limits.acquire("m1")).rejects.toBeInstanceOf(Busy);
    const other = await limits.acquire("m2");
    other();
    held();
    (await limits.acquire("m1"))();
  });

  it("a slot released twice frees one slot only", async () => {
    const limits = limit(1, 0);
    const release = await limits.acquire();
    release();
    release();
    const again = await limits.acquire();
    await expect(limits.acquire()).rejects.toBeInstanceOf(Busy);
    again();
  });

  it("run: the work's result, and the slot given back when the work fails", async () => {
    const limits = limit(1, 0);
    const held = gate();
    const running = limits.run("k", async () => {
      await held.opened;
      return 7;
    });
    await expect(limits.run("k", async () => 1)).rejects.toBeInstanceOf(Busy);
    held.open();
    expect(await running).toBe(7);
    await expect(
      limits.run("k", async () => {
        throw new Error("work failed");
      }),
    ).rejects.toThrow("work failed");
    expect(await limits.run("k", async () => 2)).toBe(2);
  });

  it("the line is served in arrival order", async () => {
    const limits = limit(1, 3);
    const first = await limits.acquire();
    const order: number[] = [];
    const waiters = [1, 2, 3].map((n) =>
      limits.acquire().then((release) => {
        order.push(n);
        release();
      }),
    );
    first();
    await Promise.all(waiters);
    expect(order).toEqual([1, 2, 3]);
  });
});
