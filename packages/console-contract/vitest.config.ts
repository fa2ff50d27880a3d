import { defineProject } from "vitest/config";

export default defineProject({
  test: { name: "console-contract", include: ["test/**/*.test.ts"] },
});
