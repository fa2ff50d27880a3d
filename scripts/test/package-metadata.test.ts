import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const license = readFileSync(join(repoRoot, "LICENSE"), "utf8");

interface Manifest {
  name: string;
  version: string;
  private?: boolean;
  [field: string]: unknown;
}

const publicPackages = readdirSync(join(repoRoot, "packages"))
  .filter((folder) => existsSync(join(repoRoot, "packages", folder, "package.json")))
  .map((folder) => ({
    folder,
    manifest: JSON.parse(readFileSync(join(repoRoot, "packages", folder, "package.json"), "utf8")) as Manifest,
  }))
  .filter(({ manifest }) => manifest.private !== true);

describe("published package metadata", () => {
  it("finds the six public packages", () => {
    expect(publicPackages.map(({ manifest }) => manifest.name).sort()).toEqual([
      "@org/webinar-client",
      "@org/webinar-conformance",
      "@org/webinar-server",
      "@org/webinar-signing",
      "@org/webinar-types",
      "@org/webinar-validator",
    ]);
  });

  it("the root LICENSE is MIT with the project's copyright line", () => {
    expect(license).toMatch(/^MIT License\n\nCopyright \(c\) 2026 The Webinar Open API authors\n/);
  });

  for (const { folder, manifest } of publicPackages) {
    it(`${manifest.name} carries what a registry page and a consumer need`, () => {
      expect(manifest.license).toBe("MIT");
      expect(manifest.repository).toEqual({
        type: "git",
        url: "git+https://github.com/org/webinar-open-api.git",
        directory: `packages/${folder}`,
      });
      expect(manifest.homepage).toMatch(/^https:\/\//);
      expect(manifest.bugs).toEqual({ url: expect.stringMatching(/^https:\/\//) });
      expect(Array.isArray(manifest.keywords) && manifest.keywords.length > 0).toBe(true);
      expect(manifest.engines).toEqual({ node: expect.any(String) });
      expect(manifest.publishConfig).toEqual({ access: "public" });
      expect(manifest.files).toEqual(expect.arrayContaining(["dist", "CHANGELOG.md", "README.md", "LICENSE"]));
    });

    it(`${manifest.name} ships the root LICENSE unchanged`, () => {
      expect(readFileSync(join(repoRoot, "packages", folder, "LICENSE"), "utf8")).toBe(license);
    });
  }

  it("the reference server has a `webinar-server` bin that starts with a node shebang", () => {
    const server = publicPackages.find(({ manifest }) => manifest.name === "@org/webinar-server")!;
    const bin = (server.manifest.bin as Record<string, string>)["webinar-server"]!;
    expect(bin).toBe("./dist/main.js");
    const source = readFileSync(join(repoRoot, "packages", "server", "src", "main.ts"), "utf8");
    expect(source.startsWith("#!/usr/bin/env node\n")).toBe(true);
  });
});
