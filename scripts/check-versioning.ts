/**
 * `pnpm check:versioning` (run by CI): fails when the public packages would not share one version, or when
 * that version's major differs from the spec's `info.version` major, once the pending changesets are applied.
 * The rule is in docs/versioning.md; the check itself in scripts/lib/versioning.ts.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import {
  checkVersioning,
  readFixedGroups,
  readPublicPackages,
  readSpecVersion,
  type ReleasePlan,
} from "./lib/versioning.ts";

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..");

/** The release plan of the pending changesets, as `changeset version` would apply it. */
function pendingReleasePlan(): ReleasePlan {
  const dir = mkdtempSync(join(tmpdir(), "webinar-versioning-"));
  try {
    const output = join(dir, "plan.json");
    const result = spawnSync("pnpm", ["exec", "changeset", "status", `--output=${output}`], {
      cwd: repoRoot,
      encoding: "utf8",
    });
    if (result.status !== 0) {
      throw new Error(`changeset status failed:\n${`${result.stdout}${result.stderr}`.trim()}`);
    }
    return JSON.parse(readFileSync(output, "utf8")) as ReleasePlan;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

try {
  const specVersion = readSpecVersion(join(repoRoot, "spec", "openapi.yaml"));
  const packages = readPublicPackages(repoRoot);
  const { nextVersions, problems } = checkVersioning({
    specVersion,
    packages,
    fixedGroups: readFixedGroups(repoRoot),
    plan: pendingReleasePlan(),
  });
  console.log(`spec info.version ${specVersion}`);
  for (const pkg of packages) {
    const next = nextVersions.get(pkg.name);
    console.log(`  ${pkg.name}: ${pkg.version}${next === pkg.version ? "" : ` -> ${next} (pending changesets)`}`);
  }
  if (problems.length > 0) {
    console.error(`\nversioning check FAILED:\n${problems.map((problem) => `  - ${problem}`).join("\n")}`);
    console.error("The rule: docs/versioning.md.");
    process.exitCode = 1;
  } else {
    console.log("versioning check passed");
  }
} catch (error) {
  console.error(`versioning check: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}
