import { defineProject } from "vitest/config";

export default defineProject({
  test: { name: "internal", include: ["src/**/*.test.ts"] },
});
