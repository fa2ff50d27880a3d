import { defineProject } from "vitest/config";
import { workspaceAliases } from "../../vitest.shared.ts";

export default defineProject({
  resolve: { alias: workspaceAliases },
  test: {
    name: "server",
    include: ["src/**/*.test.ts", "test/**/*.test.ts", "bench/**/*.test.ts"],
    globalSetup: ["test/support/global-setup.ts"],
    // Every file starts an embedded database and PostgreSQL databases of its own; the machine is shared.
    maxWorkers: 2,
    // Its own group, after the light projects, so its worker limit does not throttle them.
    sequence: { groupOrder: 1 },
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
