import { bundleInternal } from "@org/webinar-build/tsup";
import { defineConfig } from "tsup";

// ESM and CommonJS with declarations: merchant backends still run Jest and CommonJS. One entry per subpath of
// package.json's `exports`; the main entry and `hono` use Web APIs only, the other adapters Node's.
// shims: the generated validators load ajv-formats lazily with createRequire(import.meta.url), which tsup's shim
// turns into the file's own URL in the CommonJS build.
// The group commit of @org/webinar-internal is bundled in (bundleInternal), not imported.
export default defineConfig(
  bundleInternal({
    entry: {
      index: "src/index.ts",
      contract: "src/contract.ts",
      express: "src/adapters/express.ts",
      fastify: "src/adapters/fastify.ts",
      hono: "src/adapters/hono.ts",
      node: "src/adapters/node.ts",
      "nonce-store/postgres": "src/nonce-stores/postgres.ts",
      "nonce-store/redis": "src/nonce-stores/redis.ts",
    },
    format: ["esm", "cjs"],
    dts: true,
    clean: true,
    sourcemap: true,
    shims: true,
    target: "node20",
  }),
);
