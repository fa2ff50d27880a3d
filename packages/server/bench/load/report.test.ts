import { expect, test } from "vitest";
import { costVerdict, noiseOfOperations } from "./report";
import { NOISE_VARIANT } from "./run-load-bench";

test("a cost farther from its goal than the noise gets a plain verdict", () => {
  expect(costVerdict(0.02, 0.05, 0.01)).toBe("<= 5% met");
  expect(costVerdict(0.3, 0.2, 0.05)).toBe("<= 20% NOT met");
  // Without a noise row (an older result, or --only without it) the verdict is the plain comparison.
  expect(costVerdict(0.06, 0.05, undefined)).toBe("<= 5% NOT met");
});

test("a cost within the noise of its goal, either side, is marked so", () => {
  expect(costVerdict(0.07, 0.05, 0.25)).toBe("<= 5% NOT met, within the noise (±25%)");
  expect(costVerdict(-0.04, 0.05, 0.09)).toBe("<= 5% met, within the noise (±9%)");
  expect(costVerdict(0.24, 0.2, 0.05)).toBe("<= 20% NOT met, within the noise (±5%)");
});

test("the noise of an operation is its noise row's largest round, either way, on its own database", () => {
  const rows = [
    { database: "postgres", operation: "upsertExistingViewer", variant: NOISE_VARIANT, rounds: [-0.06, -0.23, 0.1] },
    { database: "postgres", operation: "heartbeat", variant: NOISE_VARIANT, rounds: [0.02, 0.01, 0.03] },
    { database: "pglite", operation: "heartbeat", variant: NOISE_VARIANT, rounds: [0.4] },
    // A feature's rounds never count as noise.
    { database: "postgres", operation: "heartbeat", variant: "request log off", rounds: [0.9] },
  ] as const;
  const noiseOf = noiseOfOperations(rows.map((row) => ({ ...row, rounds: row.rounds.map((cost) => ({ cost })) })));
  expect(noiseOf({ database: "postgres", operation: "upsertExistingViewer" })).toBe(0.23);
  expect(noiseOf({ database: "postgres", operation: "heartbeat" })).toBe(0.03);
  expect(noiseOf({ database: "pglite", operation: "heartbeat" })).toBe(0.4);
  expect(noiseOf({ database: "pglite", operation: "upsertNewViewer" })).toBeUndefined();
});
