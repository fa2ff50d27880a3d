/**
 * The pack step shared by `pnpm release:check` and the runtime matrix: `pnpm pack` of one package into a
 * folder. pnpm rewrites `workspace:*` dependencies to the real versions, exactly as `pnpm publish` does, so the
 * tarball is what the registry would receive.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

export interface PackResult {
  /** The tarball's path, when exactly one was created. */
  tarball?: string;
  /** pnpm's output, for a failure message. */
  output: string;
}

export function packPackage(packageDir: string, tarballDir: string): PackResult {
  const before = new Set(readdirSync(tarballDir));
  const result = spawnSync("pnpm", ["pack", "--pack-destination", tarballDir], {
    cwd: packageDir,
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  const created = readdirSync(tarballDir).filter((file) => file.endsWith(".tgz") && !before.has(file));
  const output = result.error ? result.error.message : `${result.stdout ?? ""}${result.stderr ?? ""}`.trim();
  if (result.status !== 0 || created.length !== 1) return { output: output || `exit code ${result.status}` };
  return { tarball: join(tarballDir, created[0]!), output };
}

/** The folders under `packages/` whose package.json is not `"private": true`, sorted by package name. */
export function publicPackageDirs(repoRoot: string): Array<{ name: string; dir: string }> {
  const packagesDir = join(repoRoot, "packages");
  return readdirSync(packagesDir)
    .map((folder) => join(packagesDir, folder))
    .filter((dir) => existsSync(join(dir, "package.json")))
    .map((dir) => ({
      dir,
      manifest: JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { name: string; private?: boolean },
    }))
    .filter(({ manifest }) => manifest.private !== true)
    .map(({ dir, manifest }) => ({ name: manifest.name, dir }))
    .sort((a, b) => a.name.localeCompare(b.name));
}
