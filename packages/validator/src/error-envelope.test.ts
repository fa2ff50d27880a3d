import { afterEach, describe, expect, it, vi } from "vitest";
import { defaultRequestId } from "./error-envelope";

describe("defaultRequestId", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("is req_ and 32 hex digits, the first 12 the time in milliseconds", () => {
    vi.useFakeTimers({ now: Date.UTC(2026, 10, 29, 7, 30), toFake: ["Date"] });
    const id = defaultRequestId();
    expect(id).toMatch(/^req_[0-9a-f]{32}$/);
    expect(Number.parseInt(id.slice(4, 16), 16)).toBe(Date.UTC(2026, 10, 29, 7, 30));
  });

  it("sorts an id of a later millisecond after an earlier one, whatever their random parts", () => {
    const ids: string[] = [];
    for (let step = 0; step < 300; step += 1) {
      vi.useFakeTimers({ now: Date.UTC(2026, 10, 29) + step * 7, toFake: ["Date"] });
      ids.push(defaultRequestId());
    }
    expect([...ids].sort()).toEqual(ids);
  });

  it("keeps 80 random bits: ids of one millisecond differ", () => {
    vi.useFakeTimers({ now: Date.UTC(2026, 10, 29), toFake: ["Date"] });
    const ids = new Set(Array.from({ length: 1000 }, () => defaultRequestId()));
    expect(ids.size).toBe(1000);
    expect(new Set([...ids].map((id) => id.slice(0, 16))).size).toBe(1);
  });

  it("draws every one of its 20 random digits at random (no fixed digit, as a UUID's version digit is)", () => {
    const ids = Array.from({ length: 1000 }, () => defaultRequestId());
    for (let position = 16; position < 36; position += 1) {
      const seen = new Set(ids.map((id) => id[position]));
      // A random hex digit drawn 1,000 times misses one of its 16 values with a chance of about 1.5e-27.
      expect(seen.size, `digit ${position - 4} of the id`).toBe(16);
    }
  });
});
