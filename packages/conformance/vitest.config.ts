import { defineProject } from "vitest/config";
import { workspaceAliases } from "../../vitest.shared.ts";

// The end-to-end tests start real servers (the reference server on PGlite and PostgreSQL, an Express app, a Prism
// mock) and run the built CLI against each as a second process: on a shared two-core machine that takes a while.
export default defineProject({
  resolve: { alias: workspaceAliases },
  test: {
    name: "conformance",
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    testTimeout: 180_000,
    hookTimeout: 120_000,
  },
});
