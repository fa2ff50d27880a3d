import { defineProject } from "vitest/config";
import { workspaceAliases } from "../vitest.shared.ts";

export default defineProject({
  resolve: { alias: workspaceAliases },
  test: { name: "spec", include: ["test/**/*.test.ts"] },
});
