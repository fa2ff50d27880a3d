import { defineProject } from "vitest/config";
import { workspaceAliases } from "../../vitest.shared.ts";

export default defineProject({
  resolve: { alias: workspaceAliases },
  test: {
    name: "types",
    include: ["src/**/*.test.ts"],
    // Type tests are real tests: tsc checks them and each `it` counts in the run's summary.
    typecheck: { enabled: true, include: ["src/**/*.test-d.ts"], tsconfig: "./tsconfig.json" },
  },
});
