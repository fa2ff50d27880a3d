/**
 * `pnpm release:publish`: publishes every public package whose version is not on the registry yet.
 *
 * 1. refuses a dirty git tree (what is published must be a commit anyone can check out);
 * 2. builds every package (turbo);
 * 3. runs the package checks of `pnpm release:check` (pack, publint, attw, consumers on Node 20 and 24);
 * 4. `changeset publish`, which publishes through `pnpm publish` (so `workspace:*` ranges become the real
 *    versions in the published manifests) and tags each published version in git.
 *
 * The registry is npm's configuration, never this repository's: `npm_config_registry` (or `registry=` in
 * your `.npmrc`) chooses it, and the token comes from your `.npmrc` (`//<host>/:_authToken=...`).
 * `--skip-checks` leaves out step 3 for a rerun right after a passing `pnpm release:check`.
 */
import { spawnSync } from "node:child_process";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const { values: options } = parseArgs({ options: { "skip-checks": { type: "boolean", default: false } } });

function run(command: string, args: string[]): number {
  console.log(`\n$ ${[command, ...args].join(" ")}`);
  const result = spawnSync(command, args, { cwd: repoRoot, stdio: "inherit" });
  if (result.error) throw result.error;
  return result.status ?? 1;
}

function dirtyFiles(): string[] {
  const result = spawnSync("git", ["status", "--porcelain", "--untracked-files=normal"], {
    cwd: repoRoot,
    encoding: "utf8",
  });
  if (result.status !== 0) throw new Error(`git status failed: ${result.stderr.trim()}`);
  return result.stdout.split("\n").filter((line) => line.trim() !== "");
}

function main(): number {
  const dirty = dirtyFiles();
  if (dirty.length > 0) {
    console.error(
      [
        "release:publish refuses to publish from a dirty git tree: commit or stash these changes first,",
        "so that what goes to the registry is a commit anyone can check out.",
        ...dirty.slice(0, 20).map((line) => `  ${line}`),
        ...(dirty.length > 20 ? [`  ... and ${dirty.length - 20} more`] : []),
      ].join("\n"),
    );
    return 1;
  }
  if (run("pnpm", ["run", "build"]) !== 0) return 1;
  if (!options["skip-checks"] && run("pnpm", ["exec", "tsx", "scripts/release-check.ts"]) !== 0) {
    console.error("release:publish stopped: the package checks failed (see above); nothing was published.");
    return 1;
  }
  return run("pnpm", ["exec", "changeset", "publish"]);
}

try {
  process.exitCode = main();
} catch (error) {
  console.error(`release:publish: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}
