import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

// One run for the whole repository: every package contributes a project through its own
// vitest.config.ts, and the summary reporter prints the closing `N passed, N failed` line CI reads.
export default defineConfig({
  test: {
    projects: ["packages/*", "spec", "docs", "scripts"],
    reporters: ["default", "./scripts/summary-reporter.ts"],
    // Vitest's default (one less than the cores) leaves a two-core machine running one file at a time, though most
    // files wait on a server, a database or a browser as much as they compute.
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
});
