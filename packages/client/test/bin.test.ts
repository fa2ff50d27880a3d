/**
 * The `webinar` bin as the workspace and the published package link it. pnpm links a workspace bin only if its
 * file exists when `pnpm install` runs, before the first build in a fresh clone, so the bin must be a checked-in
 * file that runs the built CLI (the packed package's bin is run by scripts/release-check.ts).
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { SPAWN_TIMEOUT_MS } from "./support/run-typescript";

const packageDir = fileURLToPath(new URL("..", import.meta.url));
const manifest = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
  bin: Record<string, string>;
  files: string[];
};

describe("the webinar bin", { timeout: SPAWN_TIMEOUT_MS }, () => {
  it("is a file tracked in git, not build output, so a fresh install can link it", () => {
    const bin = manifest.bin["webinar"]!;
    expect(bin.startsWith("./dist/")).toBe(false);
    const tracked = execFileSync("git", ["ls-files", "--stage", bin], { cwd: packageDir, encoding: "utf8" });
    // Mode 100755: executable, as a bin must be when a package manager links it without fixing modes.
    expect(tracked).toMatch(/^100755 /);
    expect(manifest.files).toContain(bin.split("/")[1]);
  });

  it("runs the built CLI: --help exits 0 and lists the commands", () => {
    const help = execFileSync(process.execPath, [manifest.bin["webinar"]!, "--help"], {
      cwd: packageDir,
      encoding: "utf8",
    });
    expect(help).toMatch(/upsert/);
    expect(help).toMatch(/viewers export/);
  });
});
