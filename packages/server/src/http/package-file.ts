/**
 * Files the server serves from this package rather than from code: the watch page's sample video
 * (`assets/sample.webm`), its script as the build bundled it (`dist/watch-page/watch.js`) and files of the packages
 * it depends on (hls.js), and the console app's files (`dist/console/`). They are found relative to this module,
 * which runs from the sources (`src/http/`, tests) and bundled into `dist/` (`node dist/main.js`).
 */
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

function moduleDirectory(): string {
  // CommonJS build: __dirname; ES modules (the sources and dist/*.js): import.meta.url.
  return typeof __dirname === "string" ? __dirname : dirname(fileURLToPath(import.meta.url));
}

/**
 * Where a file or folder of this package is, by its path from the package's root: `dist/../<path>` when bundled,
 * `src/<folder>/../../<path>` from the sources; undefined when it is not there.
 */
export function findPackageFile(path: string): string | undefined {
  const here = moduleDirectory();
  return [join(here, "..", path), join(here, "..", "..", path)].find((candidate) => existsSync(candidate));
}

/** The bytes of a file of this package (see findPackageFile). `missing` says what to do when it is not there. */
export function readPackageFile(path: string, missing: string): Buffer {
  const file = findPackageFile(path);
  if (file === undefined) throw new Error(`${path} is missing from the server package: ${missing}`);
  return readFileSync(file);
}

/** The bytes of a file of an installed dependency, by its package path (`hls.js/dist/hls.min.js`). */
export function readDependencyFile(specifier: string): Buffer {
  return readFileSync(createRequire(join(moduleDirectory(), "package-file.js")).resolve(specifier));
}
