/**
 * `pnpm check:versioning` (run by CI): fails when the public packages would not share one version, or when
 * that version's major differs from the spec's `info.version` major, once the pending changesets are applied.
 * The rule is in docs/versioning.md; the check itself in scripts/lib/versioning.ts.
 */
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import {
  checkVersioning,
  pendingReleasePlan,
  readFixedGroups,
  readPublicPackages,
  readSpecVersion,
} from "./lib/versioning.ts";

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..");

try {
  const specVersion = readSpecVersion(join(repoRoot, "spec", "openapi.yaml"));
  const packages = readPublicPackages(repoRoot);
  const { nextVersions, problems } = checkVersioning({
    specVersion,
    packages,
    fixedGroups: readFixedGroups(repoRoot),
    plan: pendingReleasePlan(repoRoot),
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
