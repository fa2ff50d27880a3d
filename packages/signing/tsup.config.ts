import { defineConfig } from "tsup";

// ESM and CommonJS with declarations: merchant backends still run Jest and CommonJS. One entry for every runtime.
export default defineConfig({
  entry: ["src/index.ts"],
  format: ["esm", "cjs"],
  dts: true,
  clean: true,
  sourcemap: true,
  target: "node20",
});
