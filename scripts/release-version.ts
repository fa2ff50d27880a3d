/**
 * `pnpm release:version`: applies the pending changesets (`changeset version`: one version for the public
 * packages, a CHANGELOG.md entry in each), then writes the API changes since the last release, in API terms, into
 * the changelog of `@org/webinar-types` under the new version, makes the current spec the released one
 * (spec/openapi.released.yaml) and refreshes the lockfile. `--root <dir>` releases another checkout.
 */
import { spawnSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import {
  apiChangesSection,
  diffApi,
  RELEASED_SPEC_PATH,
  readApiDocument,
  SPEC_PATH,
  withApiChangesSection,
  writeReleasedSpec,
} from "@org/webinar-build/api-changes";

const scriptsDir = dirname(fileURLToPath(import.meta.url));
const { values } = parseArgs({ options: { root: { type: "string" } } });
const repoRoot = resolve(values.root ?? join(scriptsDir, ".."));
const typesPackage = join(repoRoot, "packages", "types");

function run(command: string, args: string[]): void {
  const result = spawnSync(command, args, { cwd: repoRoot, stdio: "inherit" });
  if (result.status !== 0)
    throw new Error(`\`${[command, ...args].join(" ")}\` exited ${result.status ?? result.signal}`);
}

const specVersion = (document: ReturnType<typeof readApiDocument>) =>
  String((document.info as { version?: unknown } | undefined)?.version);

try {
  const released = readApiDocument(join(repoRoot, RELEASED_SPEC_PATH));
  const current = readApiDocument(join(repoRoot, SPEC_PATH));
  const changes = diffApi(released, current);
  run(join(scriptsDir, "..", "node_modules", ".bin", "changeset"), ["version"]);
  const { version } = JSON.parse(readFileSync(join(typesPackage, "package.json"), "utf8")) as { version: string };
  if (changes.length > 0) {
    const section = apiChangesSection(changes, { from: specVersion(released), to: specVersion(current) });
    const changelog = join(typesPackage, "CHANGELOG.md");
    writeFileSync(changelog, withApiChangesSection(readFileSync(changelog, "utf8"), version, section));
  }
  writeReleasedSpec(repoRoot);
  console.log(
    `release ${version}: ${changes.length} API change(s) in packages/types/CHANGELOG.md; ${RELEASED_SPEC_PATH} refreshed`,
  );
  run("pnpm", ["install", "--lockfile-only", "--prefer-offline"]);
} catch (error) {
  console.error(`release:version: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}
