import { writeSync } from "node:fs";
import type { Reporter, TestModule } from "vitest/node";

/**
 * Prints `N passed, N failed` alone on the last line of a run, counting every test of every project
 * (type tests included). CI reads only this line; vitest's own summary is for humans.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>, unhandledErrors: ReadonlyArray<unknown>): void {
    let passed = 0;
    let failed = 0;
    for (const testModule of testModules) {
      let failedInModule = 0;
      for (const testCase of testModule.children.allTests()) {
        const state = testCase.result().state;
        if (state === "passed") passed += 1;
        else if (state === "failed") failedInModule += 1;
      }
      // A file that failed to load, or whose beforeAll/afterAll failed (its tests then count as skipped), must
      // still fail the run.
      failed += testModule.state() === "failed" ? Math.max(failedInModule, 1) : failedInModule;
    }
    failed += unhandledErrors.length;
    // Written at exit so it follows vitest's own summary, whatever order reporters run in.
    process.once("exit", () => writeSync(1, `\n${passed} passed, ${failed} failed\n`));
  }
}
