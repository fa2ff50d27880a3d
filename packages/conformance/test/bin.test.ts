/**
 * The `webinar-conformance` bin is a checked-in, executable file that runs the built CLI: pnpm links a workspace
 * bin only if its file exists at install time, before the first build of a fresh clone.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const packageDir = fileURLToPath(new URL("..", import.meta.url));
const manifest = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
  bin: Record<string, string>;
  files: string[];
};
const bin = manifest.bin["webinar-conformance"]!;

describe("the webinar-conformance bin", () => {
  it("is an executable file tracked in git and shipped in the package", () => {
    const tracked = execFileSync("git", ["ls-files", "--stage", bin], { cwd: packageDir, encoding: "utf8" });
    expect(tracked).toMatch(/^100755 /);
    expect(manifest.files).toEqual(expect.arrayContaining(["bin", "dist", "CHANGELOG.md"]));
  });

  it("runs the built CLI: --version prints the package's version", () => {
    const version = execFileSync(process.execPath, [bin, "--version"], { cwd: packageDir, encoding: "utf8" });
    expect(version.trim()).toBe(
      (JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string }).version,
    );
  });
});
