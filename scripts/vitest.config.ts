import { defineProject } from "vitest/config";

// The repository's own tooling: the versioning rule, package metadata, and (slow) the publish flow and the
// runtime matrix over packed packages.
export default defineProject({
  test: { name: "scripts", include: ["test/**/*.test.ts"] },
});
