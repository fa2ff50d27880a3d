import { defineProject } from "vitest/config";
import { workspaceAliases } from "../../vitest.shared.ts";

export default defineProject({
  resolve: { alias: workspaceAliases },
  test: { name: "signing", include: ["src/**/*.test.ts", "test/**/*.test.ts"] },
});
