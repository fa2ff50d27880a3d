import { describe, expect, it } from "vitest";
import { abortableSleep } from "./sleep";

describe("abortableSleep", () => {
  it("resolves after the delay", async () => {
    const started = performance.now();
    await abortableSleep(20);
    expect(performance.now() - started).toBeGreaterThanOrEqual(15);
  });

  it("rejects with the signal's reason when aborted while waiting", async () => {
    const controller = new AbortController();
    const reason = new Error("stop");
    const waiting = abortableSleep(10_000, controller.signal);
    controller.abort(reason);
    await expect(waiting).rejects.toBe(reason);
  });

  it("rejects at once when the signal is already aborted", async () => {
    await expect(abortableSleep(10_000, AbortSignal.abort("gone"))).rejects.toBe("gone");
  });
});
