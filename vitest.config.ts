import { defineConfig } from "vitest/config";

// One run for the whole repository: every package contributes a project through its own
// vitest.config.ts, and the summary reporter prints the closing `N passed, N failed` line CI reads.
export default defineConfig({
  test: {
    projects: ["packages/*", "spec", "docs", "scripts"],
    reporters: ["default", "./scripts/summary-reporter.ts"],
  },
});
