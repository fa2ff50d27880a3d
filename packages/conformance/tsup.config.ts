import { defineConfig } from "tsup";

export default defineConfig([
  // The library (`runConformance` and the report writers): ESM and CommonJS with declarations.
  {
    entry: ["src/index.ts"],
    format: ["esm", "cjs"],
    dts: true,
    // Both builds run at once: this one cleans dist/ except what the other writes.
    clean: ["!cli.js", "!cli.js.map"],
    sourcemap: true,
    target: "node20",
  },
  // The `webinar-conformance` bin: one ESM file that keeps its shebang and imports its dependencies.
  {
    entry: { cli: "src/cli.ts" },
    format: ["esm"],
    dts: false,
    clean: false,
    sourcemap: true,
    target: "node20",
  },
]);
