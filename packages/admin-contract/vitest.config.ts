import { defineProject } from "vitest/config";

export default defineProject({
  test: { name: "admin-contract", include: ["test/**/*.test.ts"] },
});
