import { defineProject } from "vitest/config";
import { workspaceAliases } from "../../vitest.shared.ts";

// The end-to-end test starts the built reference server (which serves the built console), real Chromium and the
// `webinar` CLI as child processes; on a shared two-core machine that takes a while.
export default defineProject({
  resolve: { alias: workspaceAliases },
  test: {
    name: "console",
    include: ["test/**/*.test.ts"],
    testTimeout: 180_000,
    hookTimeout: 120_000,
  },
});
