import { defineConfig } from "tsup";

// ES modules with declarations: the server's bundle and the console app's Vite build take them in; neither runs
// this package's sources.
export default defineConfig({
  entry: ["src/index.ts", "src/validators.ts"],
  format: ["esm"],
  dts: true,
  clean: true,
  sourcemap: true,
  target: "node20",
});
