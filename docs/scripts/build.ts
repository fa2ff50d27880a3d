/**
 * Builds the docs site into `dist/`: the reference, `dist/index.html`, from `../spec/openapi.yaml`; the reference
 * server's own APIs, its admin API (`dist/admin.html`, from `../packages/server/admin-openapi.yaml`) and its watch
 * page's API (`dist/watch.html`, from `../packages/server/watch-openapi.yaml`) and its merchant console's API
 * (`dist/console-api.html`, from `../packages/server/console-openapi.yaml`); the spec bundled for download
 * (`openapi.json`, `openapi.yaml`); the signing test vectors (`signing-vectors.json`); and the Markdown pages
 * (`site.ts`). Each reference is ONE self-contained HTML file:
 *
 * 1. `redocly bundle` resolves every `$ref` (schemas, and the `x-codeSamples` sources in
 *    `../spec/code-samples/`, which become inline strings) into one JSON document. That document is the download;
 *    the page's copy gains links to the guides, the other pages and the downloads at the end of its description.
 * 2. The Redoc options are written next to it as a Redocly config. Redoc 3 only shows the
 *    `x-codeSamples` whose label is listed in `codeSamples.languages`, so that list is taken from the
 *    bundled spec rather than restated here.
 * 3. `redocly build-docs --inlineBundle` embeds the Redoc script instead of loading it from the CDN.
 * 4. The page is post-processed so that nothing on it fetches from the network (see
 *    `inlineRuntimeAssets`) and gains the site's navigation, then checked; a page that would still fetch fails
 *    the build.
 * 5. The Markdown pages are rendered, under the same check.
 *
 * Usage: `pnpm --filter @org/webinar-docs build [-- --spec <path>]`. `--spec` or `DOCS_SPEC` point at
 * another OpenAPI file, for trying the build out before the real spec exists.
 */
import { spawnSync } from "node:child_process";
import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { basename, dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { stringify as stringifyYaml } from "yaml";
import { guideLinks, readGuides } from "./guides.ts";
import { findNetworkReferences } from "./network-references.ts";
import {
  downloads,
  NAV_STYLE,
  readMarkdownPages,
  referencePages,
  renderMarkdownPages,
  serverDocumentPath,
  signingVectorsPath,
  siteNavigation,
} from "./site.ts";

export const PAGE_TITLE = "Webinar Open API";

const docsDir = resolve(dirname(fileURLToPath(import.meta.url)), "..");
/** The screenshots the Markdown pages show (made by the console's and the watch page's browser tests). */
const screenshotDirs = ["console", "player"];
export const defaultOutputPath = join(docsDir, "dist", "index.html");
/** The reference server's own APIs, each rendered like the spec from its OpenAPI document. */
const serverReferences = referencePages.flatMap(({ path, serverDocument }) =>
  serverDocument === undefined ? [] : [{ page: path, document: serverDocumentPath(serverDocument) }],
);
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

/** Builds the site and returns the absolute path of the reference page. Throws on any failure. */
export function buildDocs(options: BuildOptions = {}): string {
  const specPath = resolveSpecPath(options.specPath);
  const outputPath = resolve(options.outputPath ?? defaultOutputPath);
  const outputDir = dirname(outputPath);
  for (const [what, path] of [
    ["spec", specPath],
    ...serverReferences.map(({ document }) => [basename(document), document] as const),
  ]) {
    if (!existsSync(path)) throw new Error(`docs build: ${what} not found at ${path}`);
  }

  // Everything is built in a temp folder; dist/ only ever receives pages that passed the checks.
  const workDir = mkdtempSync(join(tmpdir(), "webinar-docs-"));
  try {
    const bundled = bundle(workDir, specPath);
    const reference = renderReference(workDir, bundled, {
      page: basename(outputPath),
      title: PAGE_TITLE,
      extraDescription: siteLinks(),
      options: { downloadUrls: downloadUrls.map((download) => ({ ...download })) },
    });
    const servers = serverReferences.map(({ page, document }) => {
      const bundled = bundle(workDir, document);
      const title = String((bundled["info"] as Record<string, unknown>)["title"]);
      return { page, html: renderReference(workDir, bundled, { page, title, extraDescription: "", options: {} }) };
    });

    mkdirSync(outputDir, { recursive: true });
    writeFileSync(outputPath, reference);
    for (const { page, html } of servers) writeFileSync(join(outputDir, page), html);
    // The downloads: the spec as published, every `$ref` resolved, without the links the reference page adds.
    writeFileSync(join(outputDir, "openapi.json"), `${JSON.stringify(bundled, null, 2)}\n`);
    writeFileSync(
      join(outputDir, "openapi.yaml"),
      stringifyYaml(bundled, { lineWidth: 0, aliasDuplicateObjects: false }),
    );
    copyFileSync(signingVectorsPath(), join(outputDir, "signing-vectors.json"));
    renderMarkdownPages(outputDir);
    // The pages' screenshots, beside them, so `console/sign-in.png` works on the site as on GitHub.
    for (const dir of screenshotDirs) {
      const source = join(docsDir, dir);
      if (existsSync(source)) cpSync(source, join(outputDir, dir), { recursive: true });
    }
  } finally {
    rmSync(workDir, { recursive: true, force: true });
  }
  return outputPath;
}

/** `redocly bundle`: the document with every external `$ref` resolved (code samples become inline strings). */
function bundle(workDir: string, specPath: string): Record<string, unknown> {
  const configPath = join(workDir, "redocly.yaml");
  const bundledPath = join(workDir, "bundled.json");
  writeRedoclyConfig(configPath, {});
  redocly(["bundle", specPath, "--output", bundledPath, "--ext", "json", "--config", configPath]);
  const bundled: unknown = JSON.parse(readFileSync(bundledPath, "utf8"));
  if (!isRecord(bundled) || !isRecord(bundled["info"])) throw new Error(`docs build: ${specPath} has no info object`);
  return bundled;
}

interface ReferencePage {
  /** The page's path in the site, for its navigation. */
  page: string;
  title: string;
  /** Markdown added to the end of the description. */
  extraDescription: string;
  options: Record<string, unknown>;
}

/** One Redoc page for a bundled document, with the site's navigation, checked to make no request elsewhere. */
function renderReference(workDir: string, bundled: Record<string, unknown>, reference: ReferencePage): string {
  const configPath = join(workDir, "redocly.yaml");
  const documentPath = join(workDir, "document.json");
  const pagePath = join(workDir, "page.html");
  const info = bundled["info"] as Record<string, unknown>;
  const description = typeof info["description"] === "string" ? info["description"] : "";
  const document = {
    ...bundled,
    info: { ...info, description: `${description.trimEnd()}${reference.extraDescription}` },
  };
  writeFileSync(documentPath, JSON.stringify(document));
  const languages = codeSampleLanguages(document);
  writeRedoclyConfig(configPath, {
    ...reference.options,
    ...(languages.length > 0 ? { codeSamples: { languages: [...languages, payloadLanguage] } } : {}),
  });
  redocly([
    "build-docs",
    documentPath,
    "--output",
    pagePath,
    "--title",
    reference.title,
    "--inlineBundle",
    "--config",
    configPath,
  ]);

  const html = withSiteNavigation(inlineRuntimeAssets(readFileSync(pagePath, "utf8")), reference.page);
  if (!html.includes(`"disableTelemetry":true`)) {
    throw new Error(`docs build: disableTelemetry did not reach the Redoc options of ${reference.page}`);
  }
  const offenders = findNetworkReferences(html);
  if (offenders.length > 0) {
    throw new Error(`docs build: ${reference.page} would load from the network:\n  ${offenders.join("\n  ")}`);
  }
  return html;
}

// JSON is valid YAML, so the generated config needs no YAML writer. `telemetry: off` silences the CLI.
function writeRedoclyConfig(path: string, options: Record<string, unknown>): void {
  writeFileSync(path, `${JSON.stringify({ telemetry: "off", openapi: { ...redocOptions, ...options } }, null, 2)}\n`);
}

/** The Markdown appended to the reference's description: the server guides, the other pages and the downloads. */
function siteLinks(): string {
  const { pages, changelog } = readMarkdownPages();
  const links = [...referencePages.slice(1), ...pages, changelog]
    .map(({ path, title }) => `[${title}](${path})`)
    .join(" · ");
  const files = downloads.map(({ path, title }) => `[${title}](${path})`).join(" · ");
  return (
    `${guideLinks(readGuides())}\n## More pages\n\n${links}.\n\n` +
    `## Downloads\n\nThis API's description, bundled into one file (no external \`$ref\`): ${files}.\n`
  );
}

// Redoc's own download button offers the bundled files too.
const downloadUrls = [
  { title: "openapi.json", url: "openapi.json" },
  { title: "openapi.yaml", url: "openapi.yaml" },
] as const;

/**
 * Adds the site's navigation above Redoc's layout, and the styles that keep code inside its block at any width
 * (Redoc's code panels scroll; long unbroken strings elsewhere may break).
 */
export function withSiteNavigation(html: string, page: string): string {
  const anchor = `<div id="redoc">`;
  if (html.split(anchor).length !== 2) throw new Error(`docs build: expected one ${anchor} in Redoc's page`);
  const style = `<style>${NAV_STYLE}${REDOC_STYLE}</style>\n</head>`;
  return html.replace(/<\/head>/i, () => style).replace(anchor, () => `${siteNavigation(page)}\n${anchor}`);
}

const REDOC_STYLE = `
  pre { max-width: 100%; overflow-x: auto; box-sizing: border-box; }
  #redoc { overflow-wrap: break-word; }
`;

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
