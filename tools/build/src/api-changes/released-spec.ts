/**
 * The spec of the last release, kept in the repository as `spec/openapi.released.yaml` so that every checkout (a
 * fresh clone without tags included) can compare the current spec with it. `pnpm release:version` rewrites it.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export const SPEC_PATH = "spec/openapi.yaml";
export const RELEASED_SPEC_PATH = "spec/openapi.released.yaml";

const HEADER = [
  "# spec/openapi.yaml as of the last release, written by `pnpm release:version`: `pnpm check:api-changes`",
  "# compares the spec with it. Do not edit.",
  "",
].join("\n");

/** Makes the current spec the released one. */
export function writeReleasedSpec(repoRoot: string): void {
  writeFileSync(join(repoRoot, RELEASED_SPEC_PATH), `${HEADER}${readFileSync(join(repoRoot, SPEC_PATH), "utf8")}`);
}
