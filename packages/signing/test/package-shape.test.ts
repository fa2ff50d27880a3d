import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

const root = new URL("../", import.meta.url);
const read = (path: string) => readFileSync(new URL(path, root), "utf8");
const manifest = JSON.parse(read("package.json")) as {
  exports: Record<string, unknown>;
  files: string[];
  typesVersions: Record<string, Record<string, string[]>>;
};

// One entry for every runtime: it runs in browsers, Deno, Bun and Workers, reaching node:crypto only through
// process.getBuiltinModule where the runtime has it.
const entrySources = readdirSync(new URL("src/", root)).filter(
  (file) => file.endsWith(".ts") && !file.endsWith(".test.ts"),
);

describe("package shape", () => {
  it.each(entrySources)("source %s imports no Node module and uses no Node-only global", (file) => {
    // JSDoc examples may mention process.env; only code counts.
    const source = read(`src/${file}`).replace(/\/\*[\s\S]*?\*\/|^\s*\/\/.*$/gm, "");
    expect(source).not.toMatch(/from\s+["']node:|require\(|\bBuffer\b|process\.(?!getBuiltinModule)|import\(/);
  });

  it("node:crypto is reached only through process.getBuiltinModule, in crypto-backend.ts", () => {
    const users = entrySources.filter((file) => read(`src/${file}`).includes("getBuiltinModule"));
    expect(users).toEqual(["crypto-backend.ts"]);
  });

  it("index.ts lists its exports by name (no export *)", () => {
    expect(read("src/index.ts")).not.toMatch(/export\s+\*/);
  });

  it("the main entry has import and require, each with types first", () => {
    const entry = manifest.exports["."] as Record<string, Record<string, string>>;
    for (const condition of ["import", "require"])
      expect(Object.keys(entry[condition] ?? {})).toEqual(["types", "default"]);
  });

  it("exports the main entry, the test vectors and package.json, and no wildcard or ./node subpath", () => {
    expect(Object.keys(manifest.exports)).toEqual([".", "./test-vectors.json", "./package.json"]);
  });

  it("the test vectors subpath is the generated JSON, packed, and resolvable without exports support (node10)", () => {
    expect(manifest.exports["./test-vectors.json"]).toBe("./src/test-vectors.gen.json");
    expect(manifest.files).toContain("src/test-vectors.gen.json");
    expect(manifest.typesVersions).toEqual({ "*": { "test-vectors.json": ["./src/test-vectors.gen.json"] } });
  });

  it("tsup builds the one entry", () => {
    expect(read("tsup.config.ts")).toMatch(/entry:\s*\["src\/index\.ts"\]/);
  });
});
