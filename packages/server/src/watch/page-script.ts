/**
 * The watch page's script, served at `/w/assets/watch.js`: the TypeScript of `src/watch/page/` as the build
 * bundles it (tsup.watch-page.config.ts) into `dist/watch-page/watch.js`.
 */
import { readPackageFile } from "../http/package-file";

// Module-level: the file is part of the installed package and never changes while the process runs.
let cached: string | undefined;

/** The bundled page script (read once). */
export function pageScript(): string {
  cached ??= readPackageFile(
    "dist/watch-page/watch.js",
    "build the package (`pnpm build`) to bundle the page script",
  ).toString("utf8");
  return cached;
}
