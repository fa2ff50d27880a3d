import { defineProject } from "vitest/config";
import { workspaceAliases } from "../../vitest.shared.ts";

// Real servers, PostgreSQL, Redis and a Bun process: on a shared two-core machine a test may wait its turn for
// seconds, which the default 5 s would count as a failure.
export default defineProject({
  resolve: { alias: workspaceAliases },
  test: {
    name: "validator",
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
