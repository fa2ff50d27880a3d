/**
 * The site around the references: one navigation on every page, and the Markdown pages rendered with marked
 * into self-contained HTML (inline styles, no request to any other host):
 *
 * - every top-level Markdown page of `docs/` but its README (`versioning.md` becomes `dist/versioning.html`);
 * - the server guides, `guides/*.md` (see `guides.ts`), as `dist/guides/<slug>.html`;
 * - the changelog, `dist/changelog.html`, from the changesets' history (see `changelog.ts`).
 *
 * A link to another Markdown page (`versioning.md`, `guides/verifier.md`, `../signing.md`) points at its page, so
 * the same files read well on GitHub.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { Marked, type Tokens } from "marked";
import { changelogMarkdown } from "./changelog.ts";
import { readGuides, withSamples } from "./guides.ts";
import { findNetworkReferences } from "./network-references.ts";

const docsDir = resolve(dirname(fileURLToPath(import.meta.url)), "..");
export const rootDir = resolve(docsDir, "..");

export interface SiteLink {
  /** Path from the site's root (`dist/`), such as `guides/express.html`. */
  path: string;
  title: string;
}

export interface MarkdownPage extends SiteLink {
  markdown: string;
}

export interface ReferencePage extends SiteLink {
  /** The reference server's OpenAPI document the page renders (in `packages/server/`); none for the spec's. */
  serverDocument?: string;
}

/** The reference pages Redocly renders: the spec's, then the reference server's own APIs. */
export const referencePages: readonly ReferencePage[] = [
  { path: "index.html", title: "API reference" },
  { path: "admin.html", title: "Admin API (reference server)", serverDocument: "admin-openapi.yaml" },
  { path: "watch.html", title: "Watch page API (reference server)", serverDocument: "watch-openapi.yaml" },
  // Not `console.html`: that is the page of the console's guide for merchants' staff, `console.md`.
  {
    path: "console-api.html",
    title: "Merchant console API (reference server)",
    serverDocument: "console-openapi.yaml",
  },
];

/** Where a reference page's server document is. */
export function serverDocumentPath(document: string): string {
  return join(rootDir, "packages", "server", document);
}

/** The files offered for download, beside the pages. */
export const downloads: readonly SiteLink[] = [
  { path: "openapi.json", title: "openapi.json" },
  { path: "openapi.yaml", title: "openapi.yaml" },
  { path: "signing-vectors.json", title: "signing-vectors.json" },
];

// Top-level pages come in this order, any other after them by name.
const pageOrder = ["signing", "login-tickets", "player", "versioning"];

/** The top-level Markdown pages of `docs/` (not its README), in navigation order. */
export function readTopPages(dir: string = docsDir): MarkdownPage[] {
  const files = readdirSync(dir).filter((file) => file.endsWith(".md") && file.toLowerCase() !== "readme.md");
  const rank = (slug: string) => (pageOrder.includes(slug) ? pageOrder.indexOf(slug) : pageOrder.length);
  return files
    .map((file) => file.slice(0, -3))
    .sort((a, b) => rank(a) - rank(b) || a.localeCompare(b))
    .map((slug) => {
      const markdown = readFileSync(join(dir, `${slug}.md`), "utf8");
      return { path: `${slug}.html`, title: titleOf(markdown, `${slug}.md`), markdown };
    });
}

/** Every Markdown page of the site: the top-level pages, the server guides, the changelog. */
export function readMarkdownPages(): { pages: MarkdownPage[]; guides: MarkdownPage[]; changelog: MarkdownPage } {
  const guides = readGuides().map((guide) => ({
    path: `guides/${guide.slug}.html`,
    title: guide.title,
    markdown: withSamples(guide),
  }));
  const markdown = changelogMarkdown(rootDir);
  return { pages: readTopPages(), guides, changelog: { path: "changelog.html", title: "Changelog", markdown } };
}

/** The navigation's links, in order, as paths from the site's root. */
export function navigationLinks(): SiteLink[] {
  const { pages, guides, changelog } = readMarkdownPages();
  return [...referencePages, ...pages, changelog, ...guides, ...downloads];
}

const escapeHtml = (text: string) =>
  text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll('"', "&quot;");
const slugOf = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");

function titleOf(markdown: string, file: string): string {
  const title = /^# (.+)$/m.exec(markdown)?.[1];
  if (title === undefined) throw new Error(`docs build: ${file} has no "# " title`);
  return title;
}

/** The one navigation, for the page at `current` (a path from the site's root). */
export function siteNavigation(current: string): string {
  const { pages, guides, changelog } = readMarkdownPages();
  const prefix = "../".repeat(current.split("/").length - 1);
  const link = ({ path, title }: SiteLink, download = false) =>
    `<a href="${prefix}${path}"${path === current ? ' aria-current="page"' : ""}${download ? " download" : ""}>${escapeHtml(title)}</a>`;
  const group = (label: string, links: string[]) =>
    `<span class="site-nav-group"><span class="site-nav-label">${label}</span> ${links.join(" ")}</span>`;
  return [
    `<nav class="site-nav" aria-label="Site">`,
    group(
      "Reference",
      referencePages.map((page) => link(page)),
    ),
    group(
      "Pages",
      [...pages, changelog].map((page) => link(page)),
    ),
    group(
      "Server guides",
      guides.map((page) => link(page)),
    ),
    group(
      "Downloads",
      downloads.map((file) => link(file, true)),
    ),
    `</nav>`,
  ].join("\n");
}

/** The navigation's styles, scoped to `.site-nav` so that they can join Redoc's page. */
export const NAV_STYLE = `
  .site-nav { display: flex; flex-wrap: wrap; gap: 0.25rem 1.5rem; padding: 0.6rem 1.5rem; border-bottom: 1px solid #d1d9e0;
    background: #f6f8fa; font: 14px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; color: #1f2328; }
  .site-nav-group { display: inline-flex; flex-wrap: wrap; gap: 0.1rem 0.75rem; align-items: baseline; min-width: 0; }
  .site-nav-label { color: #59636e; font-size: 0.75rem; font-weight: 600; text-transform: uppercase; letter-spacing: 0.04em; }
  .site-nav a { color: #0044d4; text-decoration: none; overflow-wrap: anywhere; }
  .site-nav a:hover { text-decoration: underline; }
  .site-nav a[aria-current="page"] { color: #1f2328; font-weight: 600; }
`;

const PAGE_STYLE = `
  :root { color-scheme: light; --text: #1f2328; --muted: #59636e; --line: #d1d9e0; --code: #f6f8fa; --accent: #0044d4; }
  body { margin: 0; font: 16px/1.6 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--text); overflow-wrap: break-word; }
  main { max-width: 60rem; margin: 0 auto; padding: 1rem 2rem 4rem; }
  @media (max-width: 600px) { main { padding: 0.5rem 1rem 3rem; } .site-nav { padding: 0.6rem 1rem; } }
  a { color: var(--accent); }
  code, pre { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 0.875rem; }
  :not(pre) > code { background: var(--code); padding: 0.1em 0.3em; border-radius: 4px; overflow-wrap: anywhere; }
  pre { background: var(--code); border: 1px solid var(--line); border-radius: 6px; padding: 1rem; overflow-x: auto; line-height: 1.45; max-width: 100%; box-sizing: border-box; }
  .sample-name { margin: 1.5rem 0 -0.75rem; color: var(--muted); font: 600 0.8rem ui-monospace, monospace; }
  .packages { color: var(--muted); font-size: 0.85rem; }
  table { display: block; max-width: 100%; overflow-x: auto; border-collapse: collapse; margin: 1rem 0; }
  th, td { border: 1px solid var(--line); padding: 0.4rem 0.7rem; text-align: left; vertical-align: top; }
  th { background: var(--code); }
  img { max-width: 100%; height: auto; border: 1px solid var(--line); }
`;

const markdown = new Marked({
  gfm: true,
  walkTokens(token) {
    // A link to another Markdown page points at its page.
    if (token.type === "link")
      token.href = token.href.replace(/^((?:\.\.\/|guides\/)?[\w-]+)\.md(#[\w-]*)?$/, "$1.html$2");
  },
  renderer: {
    heading({ tokens, depth, text }: Tokens.Heading) {
      return `<h${depth} id="${slugOf(text)}">${this.parser.parseInline(tokens)}</h${depth}>\n`;
    },
  },
});

function markdownPageHtml(page: MarkdownPage): string {
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>${escapeHtml(page.title)} · Webinar Open API</title>
  <link rel="icon" href="data:,">
  <style>${NAV_STYLE}${PAGE_STYLE}</style>
</head>
<body>
${siteNavigation(page.path)}
<main>
${markdown.parse(page.markdown, { async: false })}</main>
</body>
</html>
`;
}

/** Writes every Markdown page under `outputDir`; returns the files written. Refuses a page that would fetch. */
export function renderMarkdownPages(outputDir: string): string[] {
  const { pages, guides, changelog } = readMarkdownPages();
  return [...pages, ...guides, changelog].map((page) => {
    const html = markdownPageHtml(page);
    const offenders = findNetworkReferences(html);
    if (offenders.length > 0)
      throw new Error(`docs build: ${page.path} would load from the network:\n  ${offenders.join("\n  ")}`);
    const file = join(outputDir, page.path);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, html);
    return file;
  });
}

/** The signing test vectors as `@org/webinar-signing` exports them (`@org/webinar-signing/test-vectors.json`). */
export function signingVectorsPath(): string {
  const packageDir = join(rootDir, "packages", "signing");
  const manifest = JSON.parse(readFileSync(join(packageDir, "package.json"), "utf8")) as {
    exports?: Record<string, unknown>;
  };
  const target = manifest.exports?.["./test-vectors.json"];
  if (typeof target !== "string")
    throw new Error("docs build: @org/webinar-signing does not export ./test-vectors.json");
  const file = join(packageDir, target);
  if (!existsSync(file)) throw new Error(`docs build: @org/webinar-signing's test vectors are missing (${target})`);
  return file;
}
