/**
 * The files `dist/` offers for download: the spec bundled (JSON and YAML equal, every `$ref` internal, valid
 * OpenAPI 3.1 by the spec's own lint rules) and the signing vectors `@org/webinar-signing` exports.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { buildDocs, defaultOutputPath } from "../scripts/build.ts";
import { downloads, rootDir, signingVectorsPath } from "../scripts/site.ts";

const docsDir = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const distDir = dirname(defaultOutputPath);
const redoclyCli = createRequire(import.meta.url).resolve("@redocly/cli/bin/cli.js");

beforeAll(() => {
  if (!downloads.every(({ path }) => existsSync(join(distDir, path)))) buildDocs();
}, 120_000);

describe("docs: the spec downloads", () => {
  const read = (file: string) => readFileSync(join(distDir, file), "utf8");
  let json: unknown;
  let yaml: unknown;
  beforeAll(() => {
    json = JSON.parse(read("openapi.json"));
    yaml = parse(read("openapi.yaml"));
  });

  it("openapi.json and openapi.yaml hold the same document, the spec's", () => {
    expect(yaml).toEqual(json);
    const spec = parse(readFileSync(join(rootDir, "spec", "openapi.yaml"), "utf8")) as {
      openapi: string;
      info: unknown;
      paths: object;
    };
    const document = json as typeof spec;
    expect(document.openapi).toBe(spec.openapi);
    expect(document.info).toEqual(spec.info);
    expect(Object.keys(document.paths)).toEqual(Object.keys(spec.paths));
  });

  it("has no external $ref: every reference points inside the document, and resolves", () => {
    const references = collectRefs(json);
    expect(references.length).toBeGreaterThan(0);
    for (const reference of references) {
      expect(reference, reference).toMatch(/^#\//);
      expect(resolvePointer(json, reference), reference).toBeDefined();
    }
  });

  it.each(["openapi.json", "openapi.yaml"])("%s is valid OpenAPI 3.1 under the spec's lint rules", (file) => {
    expect((json as { openapi: string }).openapi).toMatch(/^3\.1\./);
    const result = spawnSync(
      process.execPath,
      [redoclyCli, "lint", join(distDir, file), "--config", join(rootDir, "spec", "redocly.yaml"), "--format=stylish"],
      {
        cwd: docsDir,
        encoding: "utf8",
        env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" },
      },
    );
    // Without Redocly's boxed Node end-of-life notice, which says nothing about the file.
    const output = `${result.stdout}${result.stderr}`
      .split("\n")
      .filter((line) => !/[║╔╚]/.test(line))
      .join("\n");
    expect(result.status, output).toBe(0);
    expect(output).toContain("Your API description is valid");
    expect(output).not.toMatch(/warning/i);
  });

  it("signing-vectors.json is the file @org/webinar-signing exports, byte for byte", () => {
    const shipped = readFileSync(join(distDir, "signing-vectors.json"));
    expect(shipped.equals(readFileSync(signingVectorsPath()))).toBe(true);
    const vectors = JSON.parse(shipped.toString("utf8")) as { positive: unknown[]; negative: unknown[] };
    expect(vectors.positive.length).toBeGreaterThan(0);
    expect(vectors.negative.length).toBeGreaterThan(0);
  });
});

function collectRefs(value: unknown, found: string[] = []): string[] {
  if (Array.isArray(value)) for (const item of value) collectRefs(item, found);
  else if (typeof value === "object" && value !== null) {
    for (const [key, child] of Object.entries(value)) {
      if (key === "$ref" && typeof child === "string") found.push(child);
      else collectRefs(child, found);
    }
  }
  return found;
}

function resolvePointer(document: unknown, reference: string): unknown {
  let current = document;
  for (const raw of reference.slice(2).split("/")) {
    const key = decodeURIComponent(raw).replaceAll("~1", "/").replaceAll("~0", "~");
    if (typeof current !== "object" || current === null) return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}
