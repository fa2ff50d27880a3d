/**
 * `pnpm check:api-changes` (run by CI): lists every change of spec/openapi.yaml since the last release
 * (spec/openapi.released.yaml), each judged breaking or compatible for clients and for servers, and fails when
 * the pending changesets of the public packages release less than the changes need: a major for a change that
 * breaks clients, a minor for another change of the contract, a patch for documentation. docs/versioning.md has
 * the rule; `--root <dir>` checks another checkout.
 *
 * The classifier is our own (tools/build/src/api-changes/), written after trying the diff engines that run on Node
 * here on this spec: openapi-diff 0.24 refuses OpenAPI 3.1 ("Unsupported OpenAPI version: 3.1.0"); Optic 1.0.9
 * reads it and judges enum values by direction, but its breaking-change rules have none for limits or patterns
 * (a request `maxLength` 191 -> 100, `maximum` 100 -> 50, `maxItems` 300 -> 200 or a changed request pattern all
 * pass its check), it judges for clients only, and it needs about 8 s and a telemetry client per run. oasdiff
 * (Go) and @pb33f/openapi-changes (a downloaded binary) do not install here. oasdiff's list of breaking changes is
 * the reference the rules follow.
 */
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import {
  describeChange,
  diffApi,
  RELEASED_SPEC_PATH,
  readApiDocument,
  SPEC_PATH,
} from "@org/webinar-build/api-changes";
import { checkApiChanges } from "./lib/api-changes-check.ts";
import { pendingReleasePlan, readPublicPackages } from "./lib/versioning.ts";

const { values } = parseArgs({ options: { root: { type: "string" } } });
const repoRoot = resolve(values.root ?? join(dirname(fileURLToPath(import.meta.url)), ".."));

try {
  const released = readApiDocument(join(repoRoot, RELEASED_SPEC_PATH));
  const current = readApiDocument(join(repoRoot, SPEC_PATH));
  const changes = diffApi(released, current);
  const version = (document: typeof current) => String((document.info as { version?: unknown })?.version);
  console.log(
    `API changes since the last release (${RELEASED_SPEC_PATH} ${version(released)} -> ${SPEC_PATH} ${version(current)}):`,
  );
  for (const change of changes) console.log(`  ${describeChange(change)}`);
  if (changes.length === 0) console.log("  none");
  const packages = readPublicPackages(repoRoot);
  const plan = pendingReleasePlan(repoRoot);
  const { needed, planned, problems } = checkApiChanges(
    changes,
    plan,
    packages.map((pkg) => pkg.name),
  );
  console.log(`needed: ${needed}; the pending changesets release: ${planned}`);
  if (problems.length > 0) {
    console.error(`\napi-changes check FAILED:\n${problems.map((problem) => `  - ${problem}`).join("\n")}`);
    console.error("Add a changeset of that level (`pnpm changeset`); the rule: docs/versioning.md.");
    process.exitCode = 1;
  } else {
    console.log("api-changes check passed");
  }
} catch (error) {
  console.error(`api-changes check: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
}
