/**
 * The published packages carry the code they take from @org/webinar-internal in their own bundles: that package is
 * private and never published, so no tarball may import it. esbuild inlines its code through `noExternal`. The
 * declarations inline its types (the validator's `BatchWritten`, say) through one `paths` entry per subpath of its
 * `exports`: without them TypeScript finds the package in node_modules and leaves its imports external, and tsup's
 * own `dts.resolve` reads no `exports`.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const internalFolder = new URL("../../../../packages/internal/", import.meta.url);
const internalManifest = JSON.parse(readFileSync(new URL("package.json", internalFolder), "utf8"));
const internalImport = new RegExp(`^${internalManifest.name}(/|$)`);
/** Each subpath of the package (`@org/webinar-internal/group-commit`) to its source file. */
const internalPaths = Object.fromEntries(
  Object.entries(internalManifest.exports).map(([subpath, target]) => [
    `${internalManifest.name}${subpath.slice(1)}`,
    [fileURLToPath(new URL(target, internalFolder))],
  ]),
);

/**
 * @param {import("tsup").Options} options
 * @returns {import("tsup").Options}
 */
export function bundleInternal(options) {
  const { dts, noExternal = [] } = options;
  const dtsConfig = dts === true ? {} : typeof dts === "string" ? { entry: dts } : dts || undefined;
  return {
    ...options,
    noExternal: [...noExternal, internalImport],
    ...(dtsConfig === undefined
      ? {}
      : { dts: { ...dtsConfig, compilerOptions: { ...dtsConfig.compilerOptions, paths: internalPaths } } }),
  };
}
