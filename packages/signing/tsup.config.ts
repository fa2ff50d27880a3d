import { defineConfig } from "tsup";

// ESM and CommonJS with declarations: merchant backends still run Jest and CommonJS.
// Two entries: the runtime-neutral main entry (Web Crypto) and `./node` (synchronous node:crypto for servers).
export default defineConfig({
  entry: ["src/index.ts", "src/node.ts"],
  format: ["esm", "cjs"],
  dts: true,
  clean: true,
  sourcemap: true,
  target: "node20",
});
