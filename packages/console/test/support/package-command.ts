/** A command (`bin`) of a package these tests run as a child process, found by the package's name. */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

/** The file of `command` in the `bin` of package `name`, as resolved from this app. */
export function packageCommand(name: string, command: string): string {
  const manifest = createRequire(import.meta.url).resolve(`${name}/package.json`);
  const { bin } = JSON.parse(readFileSync(manifest, "utf8")) as { bin: Record<string, string> };
  const file = bin[command];
  if (file === undefined) throw new Error(`${name} has no command ${command}`);
  return join(dirname(manifest), file);
}
