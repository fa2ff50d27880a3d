import { spawnSync } from "node:child_process";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { checkVersioning, readSpecVersion, type PublicPackage, type ReleasePlan } from "../lib/versioning.ts";

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const names = ["@org/a", "@org/b"];
const at = (version: string): PublicPackage[] => names.map((name) => ({ name, version }));
const bumpTo = (from: string, to: string, type = "major"): ReleasePlan => ({
  releases: names.map((name) => ({ name, type, oldVersion: from, newVersion: to })),
});
const none: ReleasePlan = { releases: [] };

describe("the versioning rule", () => {
  it("accepts 0.x packages whose pending changesets bring them to the spec's major", () => {
    const result = checkVersioning({
      specVersion: "1.0.0",
      packages: at("0.1.0"),
      fixedGroups: [names],
      plan: bumpTo("0.1.0", "1.0.0"),
    });
    expect(result.problems).toEqual([]);
    expect([...result.nextVersions.values()]).toEqual(["1.0.0", "1.0.0"]);
  });

  it("accepts released packages on the spec's major with nothing pending, or with a minor pending", () => {
    expect(
      checkVersioning({ specVersion: "1.2.0", packages: at("1.0.0"), fixedGroups: [names], plan: none }).problems,
    ).toEqual([]);
    const minor = bumpTo("1.0.0", "1.1.0", "minor");
    expect(
      checkVersioning({ specVersion: "1.0.0", packages: at("1.0.0"), fixedGroups: [names], plan: minor }).problems,
    ).toEqual([]);
  });

  it("refuses 0.x packages with no major pending, naming the fix", () => {
    const { problems } = checkVersioning({
      specVersion: "1.0.0",
      packages: at("0.1.0"),
      fixedGroups: [names],
      plan: bumpTo("0.1.0", "0.2.0", "minor"),
    });
    expect(problems).toHaveLength(2);
    expect(problems[0]).toContain(
      "@org/a@0.2.0 (0.1.0 now, after the pending changesets): its major 0 differs from the spec's major 1",
    );
    expect(problems[0]).toContain("add a major changeset");
  });

  it("refuses a breaking spec change without a major changeset", () => {
    const { problems } = checkVersioning({
      specVersion: "2.0.0",
      packages: at("1.4.0"),
      fixedGroups: [names],
      plan: none,
    });
    expect(problems.join("\n")).toContain("its major 1 differs from the spec's major 2");
  });

  it("refuses a package major ahead of the spec", () => {
    const { problems } = checkVersioning({
      specVersion: "1.0.0",
      packages: at("1.0.0"),
      fixedGroups: [names],
      plan: bumpTo("1.0.0", "2.0.0"),
    });
    expect(problems.join("\n")).toContain("bump the spec's info.version");
  });

  it("refuses public packages on different versions", () => {
    const packages = [
      { name: "@org/a", version: "1.0.0" },
      { name: "@org/b", version: "1.1.0" },
    ];
    const { problems } = checkVersioning({ specVersion: "1.0.0", packages, fixedGroups: [names], plan: none });
    expect(problems).toEqual([
      "public packages must share one version; after the pending changesets they would be: @org/a@1.0.0, @org/b@1.1.0",
    ]);
  });

  it("refuses a fixed group that misses a public package or names a private one", () => {
    const { problems } = checkVersioning({
      specVersion: "1.0.0",
      packages: at("1.0.0"),
      fixedGroups: [["@org/a", "@org/docs"]],
      plan: none,
    });
    expect(problems).toEqual([
      ".changeset/config.json: the fixed group lacks public package(s) @org/b",
      ".changeset/config.json: the fixed group names non-public @org/docs",
    ]);
  });

  it("reads the spec's info.version", () => {
    expect(readSpecVersion(resolve(repoRoot, "spec", "openapi.yaml"))).toMatch(/^\d+\.\d+\.\d+/);
  });

  it("holds for this repository (`pnpm check:versioning`)", () => {
    const result = spawnSync("pnpm", ["exec", "tsx", "scripts/check-versioning.ts"], {
      cwd: repoRoot,
      encoding: "utf8",
    });
    expect(`${result.stdout}${result.stderr}`).toContain("versioning check passed");
    expect(result.status).toBe(0);
  }, 60_000);
});
