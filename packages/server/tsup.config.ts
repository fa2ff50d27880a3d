import { bundleInternal } from "@org/webinar-build/tsup";
import { defineConfig } from "tsup";

// ESM and CommonJS with declarations, like every package here. `src/main.ts` (the bin and the root `pnpm start`:
// `node dist/main.js`) starts with a shebang, which esbuild keeps. The group commit of @org/webinar-internal is
// bundled in (bundleInternal), not imported.
export default defineConfig(
  bundleInternal({
    entry: ["src/index.ts", "src/main.ts"],
    format: ["esm", "cjs"],
    dts: { entry: "src/index.ts" },
    clean: true,
    sourcemap: true,
    target: "node20",
  }),
);
