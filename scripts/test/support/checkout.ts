/**
 * A temporary checkout for the API-change tests: a git repository (branch `main`) holding what the changesets CLI
 * and the API-change checker read, copied from this repository (the spec, the changesets configuration, the
 * workspace and package manifests, the public packages' changelogs), with the current spec as the released one.
 * Tests edit the copy's spec and add changesets to it; this repository is never touched.
 */
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { writeReleasedSpec } from "@org/webinar-build/api-changes";
import { readPublicPackages } from "../../lib/versioning.ts";
import { runOk } from "./processes.ts";

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");

const COPIED = ["spec/openapi.yaml", "spec/code-samples", ".changeset/config.json", ".changeset/README.md"];

/** Only the fields the changesets CLI reads: name, version, privacy and the workspace dependencies. */
function manifestOf(path: string): string {
  const manifest = JSON.parse(readFileSync(path, "utf8")) as Record<string, unknown>;
  const internal = (dependencies: unknown) =>
    Object.fromEntries(
      Object.entries((dependencies ?? {}) as Record<string, string>).filter(([name]) => name.startsWith("@org/")),
    );
  const { name, version, private: isPrivate } = manifest;
  return `${JSON.stringify({ name, version, private: isPrivate, dependencies: internal(manifest.dependencies) }, null, 2)}\n`;
}

export interface Checkout {
  root: string;
  /** Rewrites the copy's spec/openapi.yaml through `edit`. */
  editSpec(edit: (text: string) => string): void;
  /** Commits everything, as the release commit after `pnpm release:version`. */
  commit(message: string): void;
  /** Adds a changeset releasing every public package at `level`. */
  addChangeset(level: "major" | "minor" | "patch", summary: string): void;
  remove(): void;
}

export function temporaryCheckout(): Checkout {
  const root = mkdtempSync(join(tmpdir(), "webinar-api-changes-"));
  for (const path of COPIED) cpSync(join(repoRoot, path), join(root, path), { recursive: true });
  writeReleasedSpec(root);
  writeFileSync(join(root, "package.json"), `${JSON.stringify({ name: "checkout", private: true }, null, 2)}\n`);
  writeFileSync(join(root, "pnpm-workspace.yaml"), "packages:\n  - packages/*\n  - spec\n  - docs\n  - tools/*\n");
  const folders = [
    ...readdirSync(join(repoRoot, "packages")).map((folder) => join("packages", folder)),
    "spec",
    "docs",
    "tools/build",
  ];
  for (const folder of folders.filter((path) => existsSync(join(repoRoot, path, "package.json")))) {
    mkdirSync(join(root, folder), { recursive: true });
    writeFileSync(join(root, folder, "package.json"), manifestOf(join(repoRoot, folder, "package.json")));
    const changelog = join(repoRoot, folder, "CHANGELOG.md");
    if (existsSync(changelog)) cpSync(changelog, join(root, folder, "CHANGELOG.md"));
  }
  // `changeset version` loads the changelog writer named in .changeset/config.json from the checkout.
  symlinkSync(join(repoRoot, "node_modules"), join(root, "node_modules"), "dir");
  const git = (...args: string[]) =>
    runOk("git", ["-c", "user.name=API Test", "-c", "user.email=api@test.invalid", ...args], { cwd: root });
  git("init", "--quiet", "--initial-branch=main");
  git("add", "-A");
  git("commit", "--quiet", "-m", "Release");
  const publicNames = readPublicPackages(root).map((pkg) => pkg.name);
  return {
    root,
    editSpec(edit) {
      const path = join(root, "spec", "openapi.yaml");
      writeFileSync(path, edit(readFileSync(path, "utf8")));
    },
    commit(message) {
      git("add", "-A");
      git("commit", "--quiet", "-m", message);
    },
    addChangeset(level, summary) {
      const frontMatter = publicNames.map((name) => `"${name}": ${level}`).join("\n");
      writeFileSync(join(root, ".changeset", `test-${level}.md`), `---\n${frontMatter}\n---\n\n${summary}\n`);
    },
    remove() {
      rmSync(root, { recursive: true, force: true });
    },
  };
}
