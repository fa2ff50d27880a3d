import { limits } from "@org/webinar-types";
import { describe, expect, it } from "vitest";
import { planIdBatches } from "./id-batches";

const range = (from: number, count: number) => Array.from({ length: count }, (_, index) => from + index);
const sizeOf = (batch: { uids?: number[]; externalUserIds?: string[] }) =>
  (batch.uids?.length ?? 0) + (batch.externalUserIds?.length ?? 0);

describe("planIdBatches", () => {
  it("queryViewerWatch: no ids: no batch (an empty filter would return every viewer)", () => {
    expect(planIdBatches({})).toEqual([]);
    expect(planIdBatches({ uids: [], externalUserIds: [] })).toEqual([]);
  });

  it("queryViewerWatch: duplicates count toward the limit, so they are removed first", () => {
    expect(planIdBatches({ uids: [10001, 10001, 10002], externalUserIds: ["a", "a", "A"] }, 3)).toEqual([
      { uids: [10001, 10002], externalUserIds: ["a"] },
      { externalUserIds: ["A"] },
    ]);
  });

  it(`Limits: 1,000 distinct ids make 4 batches of at most limits.maxCombinedIds (${limits.maxCombinedIds}), uids and external ids combined`, () => {
    const batches = planIdBatches({ uids: range(10000, 700), externalUserIds: range(0, 300).map((n) => `crm-${n}`) });
    expect(batches.map(sizeOf)).toEqual([300, 300, 300, 100]);
    expect(batches[2]).toMatchObject({
      uids: range(10600, 100),
      externalUserIds: range(0, 200).map((n) => `crm-${n}`),
    });
    expect(batches.every((batch) => sizeOf(batch) <= limits.maxCombinedIds)).toBe(true);
  });

  it("exactly the limit is one batch, one more is two", () => {
    expect(planIdBatches({ uids: range(10000, limits.maxCombinedIds) })).toHaveLength(1);
    expect(planIdBatches({ uids: range(10000, limits.maxCombinedIds + 1) })).toHaveLength(2);
  });

  it("a non-positive batch size is a RangeError", () => {
    expect(() => planIdBatches({ uids: [10001] }, 0)).toThrow(RangeError);
  });
});
