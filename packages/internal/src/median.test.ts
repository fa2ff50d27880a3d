import { describe, expect, it } from "vitest";
import { median } from "./median";

describe("median", () => {
  it.each([
    [[5], 5],
    [[3, 1, 2], 2],
    [[0.31, 0.12, 0.18], 0.18],
    [[4, 1, 3, 2], 3],
    [[-1, -3, -2], -2],
  ])("median(%j) is %d, one of the values", (values, expected) => {
    expect(median(values)).toBe(expected);
    expect(values).toContain(median(values));
  });

  it("leaves its input in its order", () => {
    const values = [3, 1, 2];
    median(values);
    expect(values).toEqual([3, 1, 2]);
  });

  it("refuses no values instead of answering undefined", () => {
    expect(() => median([])).toThrow(RangeError);
  });
});
