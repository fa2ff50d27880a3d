/**
 * Runtimes of the matrix, all from the npm registry (`node@22`, `node@24`, `bun`, `deno`, `miniflare@4`), each in
 * its own project under node_modules/.cache/runtimes/<name> so reruns reuse them. `pnpm release:check` reads its
 * Node 24 from the same place.
 */
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cleanEnv, output, run } from "./processes.ts";

export interface RuntimeInstall {
  /** The binary, or the package folder for a library such as miniflare. */
  path?: string;
  version?: string;
  /** Why it could not be installed or started. */
  error?: string;
}

export function runtimesDir(repoRoot: string): string {
  return join(repoRoot, "node_modules", ".cache", "runtimes");
}

/**
 * Installs `spec` (e.g. `node@22`) into the runtime's cache folder unless `probe` already answers, and returns the
 * path of `target` in it (e.g. `node_modules/.bin/node`) with its `--version`.
 */
export function ensureRuntime(
  repoRoot: string,
  name: string,
  spec: string,
  target: string,
  versionArgs = ["--version"],
): RuntimeInstall {
  const dir = join(runtimesDir(repoRoot), name);
  const path = join(dir, target);
  const probe = () => {
    if (!existsSync(path)) return undefined;
    const result = run(path, versionArgs, { cwd: dir, env: cleanEnv(), timeoutMs: 30_000 });
    return result.status === 0 ? result.stdout.trim().split("\n")[0] : undefined;
  };
  let version = probe();
  if (version !== undefined) return { path, version };
  mkdirSync(dir, { recursive: true });
  if (!existsSync(join(dir, "package.json"))) writeFileSync(join(dir, "package.json"), '{ "private": true }\n');
  // The runtime packages download their platform binary in an install script, so scripts must run here.
  const install = run("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error", spec], {
    cwd: dir,
    env: cleanEnv(),
    timeoutMs: 300_000,
  });
  version = probe();
  if (version !== undefined) return { path, version };
  const why = install.status === 0 ? `${target} does not run` : `npm install ${spec} failed`;
  return { error: `${why}: ${output(install).split("\n").slice(-5).join(" | ") || "no output"}` };
}
