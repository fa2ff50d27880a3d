/**
 * The same request matrix (every rule of "Signing requests", "Errors and retries" and "Limits", and every request
 * vector) against the core and against each adapter mounted in a real app of its framework.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestOptions } from "./support/fixture";
import { APP_NOT_FOUND, mismatches, operationOf, requestMatrix } from "./support/request-matrix";
import { runnerFactories, type Runner } from "./support/runners";

describe.each(runnerFactories)("%s", (_name, createRunner) => {
  let runner: Runner;
  beforeAll(async () => {
    runner = await createRunner(createTestOptions());
  });
  afterAll(async () => runner.close());

  it.each(requestMatrix.map((matrixCase) => [matrixCase.name, matrixCase] as const))(
    "%s",
    async (_caseName, matrixCase) => {
      for (const [index, step] of matrixCase.steps.entries()) {
        const request = step.request();
        const observed = await runner.send(request);
        const expected = step.expect.notAnOperation && runner.handsOtherPathsToApp ? APP_NOT_FOUND : step.expect;
        expect(mismatches(observed, expected, operationOf(request.path)), `step ${index + 1}`).toEqual([]);
      }
    },
  );
});
