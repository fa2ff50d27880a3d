/**
 * The versioning rule (docs/versioning.md, CONTRIBUTING.md "Versioning"), as a pure check:
 *
 * - every public package is in the changesets `fixed` group, and the group holds nothing else;
 * - all public packages carry one version;
 * - that version's major equals the major of `info.version` in spec/openapi.yaml.
 *
 * Versions are compared as they will be once the pending changesets are applied (`changeset version`), so the
 * rule holds both before a release (0.x packages with a pending major changeset) and after it.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export interface PublicPackage {
  name: string;
  version: string;
}

/** The part of `changeset status --output` this check reads. */
export interface ReleasePlan {
  releases: Array<{ name: string; type: string; oldVersion: string; newVersion: string }>;
}

export interface VersioningInput {
  specVersion: string;
  packages: PublicPackage[];
  fixedGroups: string[][];
  plan: ReleasePlan;
}

export interface VersioningResult {
  /** Version of each public package after the pending changesets. */
  nextVersions: Map<string, string>;
  problems: string[];
}

const SEMVER = /^(\d+)\.(\d+)\.(\d+)(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/;

export function majorOf(version: string): number | undefined {
  const match = SEMVER.exec(version);
  return match === null ? undefined : Number(match[1]);
}

export function checkVersioning(input: VersioningInput): VersioningResult {
  const problems: string[] = [];
  const specMajor = majorOf(input.specVersion);
  if (specMajor === undefined) problems.push(`spec/openapi.yaml info.version "${input.specVersion}" is not semver`);

  const publicNames = input.packages.map((pkg) => pkg.name).sort();
  const group = input.fixedGroups.find((candidate) => candidate.some((name) => publicNames.includes(name))) ?? [];
  const missing = publicNames.filter((name) => !group.includes(name));
  const extra = group.filter((name) => !publicNames.includes(name));
  if (missing.length > 0) {
    problems.push(`.changeset/config.json: the fixed group lacks public package(s) ${missing.join(", ")}`);
  }
  if (extra.length > 0) problems.push(`.changeset/config.json: the fixed group names non-public ${extra.join(", ")}`);
  if (input.fixedGroups.filter((candidate) => candidate.some((name) => publicNames.includes(name))).length > 1) {
    problems.push(".changeset/config.json: the public packages are spread over several fixed groups; use one");
  }

  const nextVersions = new Map<string, string>();
  for (const pkg of input.packages) {
    const release = input.plan.releases.find((candidate) => candidate.name === pkg.name);
    nextVersions.set(pkg.name, release?.newVersion ?? pkg.version);
  }

  const distinct = [...new Set(nextVersions.values())];
  if (distinct.length > 1) {
    const listing = [...nextVersions].map(([name, version]) => `${name}@${version}`).join(", ");
    problems.push(`public packages must share one version; after the pending changesets they would be: ${listing}`);
  }
  if (specMajor !== undefined) {
    for (const [name, version] of nextVersions) {
      const major = majorOf(version);
      if (major === undefined) problems.push(`${name}: version "${version}" is not semver`);
      else if (major !== specMajor) {
        const current = input.packages.find((pkg) => pkg.name === name)?.version;
        const pending = current === version ? "" : ` (${current} now, after the pending changesets)`;
        problems.push(
          `${name}@${version}${pending}: its major ${major} differs from the spec's major ${specMajor} ` +
            `(info.version ${input.specVersion}); ${major < specMajor ? "add a major changeset" : "bump the spec's info.version"}`,
        );
      }
    }
  }
  return { nextVersions, problems };
}

/** `info.version` of the spec, read from its top-level `info` block. */
export function readSpecVersion(specPath: string): string {
  const lines = readFileSync(specPath, "utf8").split("\n");
  const start = lines.findIndex((line) => /^info:\s*$/.test(line));
  if (start === -1) throw new Error(`${specPath} has no top-level info block`);
  for (const line of lines.slice(start + 1)) {
    if (/^\S/.test(line)) break;
    const match = /^ {2}version:\s*["']?([^"'\s#]+)["']?/.exec(line);
    if (match) return match[1]!;
  }
  throw new Error(`${specPath} has no info.version`);
}

export function readPublicPackages(repoRoot: string): PublicPackage[] {
  const packagesDir = join(repoRoot, "packages");
  return readdirSync(packagesDir)
    .map((folder) => join(packagesDir, folder, "package.json"))
    .filter((path) => existsSync(path))
    .map((path) => JSON.parse(readFileSync(path, "utf8")) as { name: string; version: string; private?: boolean })
    .filter((manifest) => manifest.private !== true)
    .map((manifest) => ({ name: manifest.name, version: manifest.version }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

export function readFixedGroups(repoRoot: string): string[][] {
  const config = JSON.parse(readFileSync(join(repoRoot, ".changeset", "config.json"), "utf8")) as {
    fixed?: string[][];
  };
  return config.fixed ?? [];
}

/** This repository's changesets CLI; it reads the changesets of whichever checkout it runs in. */
const changesetCli = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..", "node_modules", ".bin", "changeset");

/** The release plan of the pending changesets in `repoRoot`, as `changeset version` would apply it. */
export function pendingReleasePlan(repoRoot: string): ReleasePlan {
  const dir = mkdtempSync(join(tmpdir(), "webinar-versioning-"));
  try {
    const output = join(dir, "plan.json");
    const result = spawnSync(changesetCli, ["status", `--output=${output}`], { cwd: repoRoot, encoding: "utf8" });
    if (result.status !== 0) {
      throw new Error(`changeset status failed:\n${`${result.stdout}${result.stderr}`.trim()}`);
    }
    return JSON.parse(readFileSync(output, "utf8")) as ReleasePlan;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
