import { describe, expect, it } from "vitest";
import { createServerClock } from "./server-clock";

describe("the server's clock from its Date header", () => {
  it("without a Date header, the local clock stands for the server's", () => {
    const clock = createServerClock(() => 1_000_000);
    clock.observe(undefined, 0, 0);
    expect(clock.offsetMs()).toBeUndefined();
    expect(clock.now()).toBe(1_000_000);
  });

  it("a server 90 s ahead: the offset is the header's second plus half a second, minus the exchange's midpoint", () => {
    const local = Date.UTC(2026, 10, 25, 12, 0, 0);
    const clock = createServerClock(() => local);
    clock.observe(new Date(local + 90_000).toUTCString(), local - 100, local + 100);
    expect(clock.offsetMs()).toBe(90_500);
    expect(clock.now()).toBe(local + 90_500);
  });

  it("an unreadable Date header is ignored", () => {
    const clock = createServerClock(() => 5);
    clock.observe("yesterday", 0, 0);
    expect(clock.offsetMs()).toBeUndefined();
  });
});
