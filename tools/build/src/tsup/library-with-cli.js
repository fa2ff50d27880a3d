/**
 * The build of a package that is a library and a command: the library as ESM and CommonJS with declarations, and
 * `src/cli.ts` as one ESM file, `dist/cli.js`, that keeps its shebang (esbuild preserves it) and imports its
 * dependencies. Both builds run at once, so the library's clean of `dist/` spares what the CLI build writes. Both
 * carry what they use of @org/webinar-internal (bundle-internal.js).
 *
 * JavaScript (typed by library-with-cli.d.ts), not TypeScript: tsup loads a package's tsup.config.ts with this
 * module left external, and Node 20 runs no TypeScript of its own.
 */
import { bundleInternal } from "./bundle-internal.js";

/** @returns {import("tsup").Options[]} */
export function libraryWithCli() {
  return [
    bundleInternal({
      entry: ["src/index.ts"],
      format: ["esm", "cjs"],
      dts: true,
      clean: ["!cli.js", "!cli.js.map"],
      sourcemap: true,
      target: "node20",
    }),
    bundleInternal({
      entry: { cli: "src/cli.ts" },
      format: ["esm"],
      dts: false,
      clean: false,
      sourcemap: true,
      target: "node20",
    }),
  ];
}
