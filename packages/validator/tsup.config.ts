import { defineConfig } from "tsup";

// ESM and CommonJS with declarations: merchant backends still run Jest and CommonJS.
// shims: the generated validators load ajv-formats lazily with createRequire(import.meta.url), which tsup's shim
// turns into the file's own URL in the CommonJS build.
export default defineConfig({
  entry: ["src/index.ts", "src/contract.ts"],
  format: ["esm", "cjs"],
  dts: true,
  clean: true,
  sourcemap: true,
  shims: true,
  target: "node20",
});
