/**
 * Builds the reference as ONE self-contained HTML file, `dist/index.html`, from `../spec/openapi.yaml`, and the
 * server guides beside it, `dist/guides/<name>.html`, from `guides/*.md` (see `guides.ts`).
 *
 * 1. `redocly bundle` resolves every `$ref` (schemas, and the `x-codeSamples` sources in
 *    `../spec/code-samples/`, which become inline strings) into one JSON document; the description gains a link to
 *    every guide.
 * 2. The Redoc options are written next to it as a Redocly config. Redoc 3 only shows the
 *    `x-codeSamples` whose label is listed in `codeSamples.languages`, so that list is taken from the
 *    bundled spec rather than restated here.
 * 3. `redocly build-docs --inlineBundle` embeds the Redoc script instead of loading it from the CDN.
 * 4. The page is post-processed so that nothing on it fetches from the network (see
 *    `inlineRuntimeAssets`), then checked; a page that would still fetch fails the build.
 * 5. The guides are rendered, under the same check.
 *
 * Usage: `pnpm --filter @org/webinar-docs build [-- --spec <path>]`. `--spec` or `DOCS_SPEC` point at
 * another OpenAPI file, for trying the build out before the real spec exists.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { guideLinks, readGuides, renderGuides } from "./guides.ts";
import { findNetworkReferences } from "./network-references.ts";

export const PAGE_TITLE = "Webinar Open API";

const docsDir = resolve(dirname(fileURLToPath(import.meta.url)), "..");
export const defaultOutputPath = join(docsDir, "dist", "index.html");
const redoclyCli = createRequire(import.meta.url).resolve("@redocly/cli/bin/cli.js");

/** The spec the build reads: `DOCS_SPEC` when set (tests and trial builds), else `../spec/openapi.yaml`. */
export function resolveSpecPath(override?: string): string {
  return resolve(override ?? process.env["DOCS_SPEC"] ?? join(docsDir, "..", "spec", "openapi.yaml"));
}

/**
 * Redoc options (https://redocly.com/docs/redoc/v3.x/config). `disableTelemetry` matters twice: it
 * keeps readers' browsers from reporting to Redocly, and such a request would break the offline page.
 */
const redocOptions = { disableTelemetry: true } as const;

interface CodeSampleLanguage {
  lang: string;
  label: string;
}

// Redoc's own name for the request-body example tab; kept after the spec's samples.
const payloadLanguage: CodeSampleLanguage = { lang: "payload", label: "Payload" };

export interface BuildOptions {
  specPath?: string;
  outputPath?: string;
}

/** Builds the page and returns the absolute path of the written HTML file. Throws on any failure. */
export function buildDocs(options: BuildOptions = {}): string {
  const specPath = resolveSpecPath(options.specPath);
  const outputPath = resolve(options.outputPath ?? defaultOutputPath);
  if (!existsSync(specPath)) {
    throw new Error(`docs build: spec not found at ${specPath}`);
  }

  // Everything is built in a temp folder; dist/ only ever receives a page that passed the checks.
  const workDir = mkdtempSync(join(tmpdir(), "webinar-docs-"));
  try {
    const configPath = join(workDir, "redocly.yaml");
    const bundledPath = join(workDir, "openapi.bundled.json");
    const pagePath = join(workDir, "index.html");
    writeRedoclyConfig(configPath, []);
    redocly(["bundle", specPath, "--output", bundledPath, "--ext", "json", "--config", configPath]);

    const bundled: unknown = JSON.parse(readFileSync(bundledPath, "utf8"));
    writeFileSync(bundledPath, JSON.stringify(withGuideLinks(bundled)));
    writeRedoclyConfig(configPath, [...codeSampleLanguages(bundled), payloadLanguage]);
    redocly([
      "build-docs",
      bundledPath,
      "--output",
      pagePath,
      "--title",
      PAGE_TITLE,
      "--inlineBundle",
      "--config",
      configPath,
    ]);

    const html = inlineRuntimeAssets(readFileSync(pagePath, "utf8"));
    if (!html.includes(`"disableTelemetry":true`)) {
      throw new Error("docs build: disableTelemetry did not reach the page's Redoc options");
    }
    const offenders = findNetworkReferences(html);
    if (offenders.length > 0) {
      throw new Error(`docs build: the page would load from the network:\n  ${offenders.join("\n  ")}`);
    }
    mkdirSync(dirname(outputPath), { recursive: true });
    writeFileSync(outputPath, html);
    renderGuides(join(dirname(outputPath), "guides"));
  } finally {
    rmSync(workDir, { recursive: true, force: true });
  }
  return outputPath;
}

// JSON is valid YAML, so the generated config needs no YAML writer. `telemetry: off` silences the CLI.
function writeRedoclyConfig(path: string, languages: CodeSampleLanguage[]): void {
  const openapi = languages.length > 0 ? { ...redocOptions, codeSamples: { languages } } : redocOptions;
  writeFileSync(path, `${JSON.stringify({ telemetry: "off", openapi }, null, 2)}\n`);
}

/** The bundled document with a link to every server guide at the end of its description. */
function withGuideLinks(document: unknown): unknown {
  if (!isRecord(document) || !isRecord(document["info"])) throw new Error("docs build: the bundled spec has no info object");
  const description = typeof document["info"]["description"] === "string" ? document["info"]["description"] : "";
  return { ...document, info: { ...document["info"], description: `${description.trimEnd()}${guideLinks(readGuides())}` } };
}

/** The distinct `{lang, label}` pairs of every operation's `x-codeSamples`, in document order. */
export function codeSampleLanguages(document: unknown): CodeSampleLanguage[] {
  const found = new Map<string, CodeSampleLanguage>();
  const paths = isRecord(document) && isRecord(document["paths"]) ? document["paths"] : {};
  for (const pathItem of Object.values(paths)) {
    if (!isRecord(pathItem)) continue;
    for (const operation of Object.values(pathItem)) {
      const samples = isRecord(operation) ? operation["x-codeSamples"] : undefined;
      if (!Array.isArray(samples)) continue;
      for (const sample of samples) {
        if (!isRecord(sample) || typeof sample["lang"] !== "string") continue;
        const lang = sample["lang"];
        const label = typeof sample["label"] === "string" ? sample["label"] : lang;
        if (!found.has(label.toLowerCase())) found.set(label.toLowerCase(), { lang, label });
      }
    }
  }
  return [...found.values()];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * `--inlineBundle` still leaves two requests: Redoc 3 draws its "API docs by" attribution with an
 * `<img>` from Redocly's CDN (added after hydration), and without a declared icon the browser asks the
 * host for `/favicon.ico`. The CDN URLs become inline SVG wordmarks and the page declares an empty
 * icon. A Redoc upgrade that drops one of these URLs fails the build, so the list cannot go stale.
 */
const runtimeAssets: ReadonlyArray<{ url: string; svg: string }> = [
  { url: "https://cdn.redoc.ly/redoc/logo-mini-full.svg", svg: wordmark("Redocly", 58) },
  { url: "https://cdn.redoc.ly/redoc/logo-mini.svg", svg: wordmark("R", 12) },
];

export function inlineRuntimeAssets(html: string): string {
  let result = html;
  for (const { url, svg } of runtimeAssets) {
    if (!result.includes(url)) {
      throw new Error(`docs build: expected Redoc to reference ${url}; update runtimeAssets in scripts/build.ts`);
    }
    // Percent-encode everything that could end a JS string literal (encodeURIComponent keeps `'`).
    const dataUri = `data:image/svg+xml,${encodeURIComponent(svg).replaceAll("'", "%27")}`;
    result = result.replaceAll(url, dataUri);
  }
  if (!/<link\b[^>]*\brel=["']?icon/i.test(result)) {
    result = result.replace(/<\/title>/i, `</title>\n  <link rel="icon" href="data:,">`);
  }
  return result;
}

function wordmark(text: string, width: number): string {
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="16" viewBox="0 0 ${width} 16">` +
    `<text x="0" y="12.5" font-family="system-ui,sans-serif" font-size="13" font-weight="600" fill="#0044D4">${text}</text></svg>`
  );
}

function redocly(args: string[]): void {
  const result = spawnSync(process.execPath, [redoclyCli, ...args], {
    cwd: docsDir,
    encoding: "utf8",
    env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" },
  });
  if (result.error) throw result.error;
  if (result.status !== 0) {
    throw new Error(
      `docs build: redocly ${args[0]} failed (exit ${result.status}):\n${withoutBanners(result.stdout + result.stderr)}`,
    );
  }
}

// Redocly prints a boxed Node 20 end-of-life notice on every run; it says nothing about this build.
function withoutBanners(output: string): string {
  return output
    .split("\n")
    .filter((line) => !/[║╔╚]/.test(line))
    .join("\n")
    .trim();
}

const isMain = process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (isMain) {
  try {
    // pnpm 10 forwards the literal `--` of `pnpm build -- --spec x`; it is not an argument.
    const args = process.argv.slice(2).filter((arg) => arg !== "--");
    const { values } = parseArgs({ args, options: { spec: { type: "string" } } });
    const started = Date.now();
    const written = buildDocs(values.spec === undefined ? {} : { specPath: values.spec });
    const kib = Math.round(statSync(written).size / 1024);
    console.log(`docs: wrote ${relative(process.cwd(), written)} (${kib} KiB) in ${Date.now() - started} ms`);
  } catch (error) {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  }
}
