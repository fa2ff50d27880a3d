/**
 * A command (`bin`) of a package, found by the package's name as the calling module resolves it. The caller
 * passes its own `import.meta.url`: this package depends on no package it starts, which keeps the workspace's
 * graph free of circles.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

/** The file of `command` in the `bin` of package `name`, as resolved from the module at `from`. */
export function packageBin(from: string | URL, name: string, command: string): string {
  const manifest = createRequire(from).resolve(`${name}/package.json`);
  const { bin } = JSON.parse(readFileSync(manifest, "utf8")) as { bin: Record<string, string> };
  const file = bin[command];
  if (file === undefined) throw new Error(`${name} has no command ${command}`);
  return join(dirname(manifest), file);
}
