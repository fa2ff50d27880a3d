import { defineConfig } from "tsup";

// ESM and CommonJS with declarations, like every package here. `src/main.ts` (the bin and the root `pnpm start`:
// `node dist/main.js`) starts with a shebang, which esbuild keeps.
export default defineConfig({
  entry: ["src/index.ts", "src/main.ts"],
  format: ["esm", "cjs"],
  dts: { entry: "src/index.ts" },
  clean: true,
  sourcemap: true,
  target: "node20",
});
