/**
 * The same request matrix (spec §5.1-§5.3, §7.1, §8 and every request vector of §4) against the core and against
 * each adapter mounted in a real app, over real HTTP to 127.0.0.1.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestOptions } from "./support/fixture";
import { mismatches, operationOf, requestMatrix } from "./support/request-matrix";
import { runnerFactories, type Runner } from "./support/runners";

describe.each(runnerFactories)("%s", (_name, createRunner) => {
  let runner: Runner;
  beforeAll(async () => {
    runner = await createRunner(createTestOptions());
  });
  afterAll(async () => runner.close());

  it.each(requestMatrix.map((matrixCase) => [matrixCase.name, matrixCase] as const))("%s", async (_caseName, matrixCase) => {
    for (const [index, step] of matrixCase.steps.entries()) {
      const request = step.request();
      const observed = await runner.send(request);
      expect(mismatches(observed, step.expect, operationOf(request.path)), `step ${index + 1}`).toEqual([]);
    }
  });
});
