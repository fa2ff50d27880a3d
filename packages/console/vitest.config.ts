import { defineProject } from "vitest/config";
import { workspaceAliases } from "../../vitest.shared.ts";

// Unit tests of the app's pure modules, and the end-to-end tests, which start the built reference server (which serves the built console), real Chromium and the
// `webinar` CLI as child processes; on a shared two-core machine that takes a while.
export default defineProject({
  resolve: { alias: workspaceAliases },
  test: {
    name: "console",
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    // The app's base (vite.config.ts), so `import.meta.env.BASE_URL` in the unit tests is what the build gives.
    env: { BASE_URL: "/console/" },
    testTimeout: 180_000,
    hookTimeout: 120_000,
  },
});
