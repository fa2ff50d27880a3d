import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

const root = new URL("../", import.meta.url);
const read = (path: string) => readFileSync(new URL(path, root), "utf8");
const manifest = JSON.parse(read("package.json")) as { exports: Record<string, unknown> };

// Design §1 and §2: the main entry runs in browsers, Deno, Bun and Workers; node:crypto lives only in ./node.
const mainEntrySources = readdirSync(new URL("src/", root)).filter(
  (file) => file.endsWith(".ts") && !file.endsWith(".test.ts") && file !== "node.ts",
);

describe("package shape", () => {
  it.each(mainEntrySources)("main entry source %s uses no Node-only API", (file) => {
    // JSDoc examples may mention process.env; only code counts.
    const source = read(`src/${file}`).replace(/\/\*[\s\S]*?\*\/|^\s*\/\/.*$/gm, "");
    expect(source).not.toMatch(/from\s+["']node:|require\(|\bBuffer\b|\bprocess\./);
  });

  it("design §2: index.ts lists its exports by name (no export *)", () => {
    expect(read("src/index.ts")).not.toMatch(/export\s+\*/);
  });

  it.each([".", "./node"])("design §2: exports[%s] has import and require, each with types first", (subpath) => {
    const entry = manifest.exports[subpath] as Record<string, Record<string, string>>;
    for (const condition of ["import", "require"]) {
      expect(Object.keys(entry[condition] ?? {})).toEqual(["types", "default"]);
    }
  });

  it("design §2: no wildcard subpath in exports", () => {
    expect(Object.keys(manifest.exports).some((key) => key.includes("*"))).toBe(false);
  });

  it("tsup builds both entries", () => {
    expect(read("tsup.config.ts")).toMatch(/entry:\s*\["src\/index\.ts",\s*"src\/node\.ts"\]/);
  });
});
