import { defineProject } from "vitest/config";
import { workspaceAliases } from "../../vitest.shared.ts";

export default defineProject({
  resolve: { alias: workspaceAliases },
  test: {
    name: "client",
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    // Type tests are real tests: tsc checks them and each `it` counts in the run's summary.
    typecheck: { enabled: true, include: ["test/**/*.test-d.ts"], tsconfig: "./test/tsconfig.test-d.json" },
  },
});
