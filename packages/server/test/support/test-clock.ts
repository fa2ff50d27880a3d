/** A clock the test moves, for a server's injected runtime; it starts at the real time. */
import { systemRuntime, type Runtime } from "../../src/runtime";

export function testClock(): Runtime & { set(ms: number): void; advance(seconds: number): void } {
  let now = Date.now();
  return { ...systemRuntime, now: () => now, set: (ms) => (now = ms), advance: (seconds) => (now += seconds * 1000) };
}
