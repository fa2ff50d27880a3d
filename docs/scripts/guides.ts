/**
 * Renders the server guides, `guides/*.md`, into self-contained pages under `dist/guides/`: the Markdown as HTML
 * (marked), with inline styles and no request to any other host, linked to each other and to the reference.
 *
 * The guides' code is real files under `guides/samples/` that `test/guides.test.ts` runs. A paragraph that is only
 * a link to a sample (`[samples/express.ts](samples/express.ts)`) becomes that file's code on the page; on GitHub
 * it stays a link to the file. Links to another guide (`fastify.md`) point at its page.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { Marked, type Tokens } from "marked";
import { findNetworkReferences } from "./network-references.ts";

const guidesDir = resolve(dirname(fileURLToPath(import.meta.url)), "..", "guides");

/** The guides, in the order of the navigation: file `guides/<slug>.md`, page `guides/<slug>.html`. */
export const guideSlugs = ["express", "fastify", "hono", "node-http", "verifier"] as const;

export interface Guide {
  slug: string;
  /** The Markdown's first-level heading. */
  title: string;
  markdown: string;
  /** The sample files the guide shows, as linked (`samples/express.ts`). */
  samples: string[];
}

const SAMPLE_LINK = /^\[(samples\/[\w.-]+)\]\(\1\)$/gm;

export function readGuides(): Guide[] {
  return guideSlugs.map((slug) => {
    const markdown = readFileSync(join(guidesDir, `${slug}.md`), "utf8");
    const title = /^# (.+)$/m.exec(markdown)?.[1];
    if (title === undefined) throw new Error(`docs build: guides/${slug}.md has no "# " title`);
    return { slug, title, markdown, samples: [...markdown.matchAll(SAMPLE_LINK)].map((match) => match[1]!) };
  });
}

/** The text of a sample file, as the page shows it. */
export function sampleSource(sample: string): string {
  return readFileSync(join(guidesDir, sample), "utf8").trimEnd();
}

const escapeHtml = (text: string) => text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll('"', "&quot;");
const slugOf = (text: string) => text.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "");

const markdown = new Marked({
  gfm: true,
  walkTokens(token) {
    // A link to another guide points at its page.
    if (token.type === "link" && /^[\w-]+\.md(?:#[\w-]*)?$/.test(token.href)) token.href = token.href.replace(".md", ".html");
  },
  renderer: {
    heading({ tokens, depth, text }: Tokens.Heading) {
      return `<h${depth} id="${slugOf(text)}">${this.parser.parseInline(tokens)}</h${depth}>\n`;
    },
  },
});

/** The guide's Markdown with each sample link replaced by the sample's code under its name. */
function withSamples(guide: Guide): string {
  return guide.markdown.replace(SAMPLE_LINK, (_link, sample: string) => {
    const language = sample.endsWith(".ts") ? "ts" : "";
    return `<p class="sample-name">${escapeHtml(sample)}</p>\n\n\`\`\`\`${language}\n${sampleSource(sample)}\n\`\`\`\`\n`;
  });
}

function navigation(guides: Guide[], current: string): string {
  const links = guides.map(({ slug, title }) => `<a href="${slug}.html"${slug === current ? ' aria-current="page"' : ""}>${escapeHtml(title)}</a>`);
  return `<nav aria-label="Guides"><a href="../index.html">API reference</a> ${links.join(" ")}</nav>`;
}

const STYLE = `
  :root { color-scheme: light; --text: #1f2328; --muted: #59636e; --line: #d1d9e0; --code: #f6f8fa; --accent: #0044d4; }
  body { margin: 0; font: 16px/1.6 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--text); }
  nav { display: flex; flex-wrap: wrap; gap: 0.25rem 1.25rem; padding: 0.75rem 2rem; border-bottom: 1px solid var(--line); background: var(--code); }
  nav a { color: var(--accent); text-decoration: none; }
  nav a[aria-current="page"] { color: var(--text); font-weight: 600; }
  main { max-width: 60rem; margin: 0 auto; padding: 1rem 2rem 4rem; }
  a { color: var(--accent); }
  code, pre { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 0.875rem; }
  :not(pre) > code { background: var(--code); padding: 0.1em 0.3em; border-radius: 4px; }
  pre { background: var(--code); border: 1px solid var(--line); border-radius: 6px; padding: 1rem; overflow-x: auto; line-height: 1.45; }
  .sample-name { margin: 1.5rem 0 -0.75rem; color: var(--muted); font: 600 0.8rem ui-monospace, monospace; }
  table { border-collapse: collapse; margin: 1rem 0; }
  th, td { border: 1px solid var(--line); padding: 0.4rem 0.7rem; text-align: left; vertical-align: top; }
  th { background: var(--code); }
`;

function page(guide: Guide, guides: Guide[]): string {
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>${escapeHtml(guide.title)} · Webinar Open API guides</title>
  <link rel="icon" href="data:,">
  <style>${STYLE}</style>
</head>
<body>
${navigation(guides, guide.slug)}
<main>
${markdown.parse(withSamples(guide), { async: false })}</main>
</body>
</html>
`;
}

/** Writes `<outputDir>/<slug>.html` for every guide; returns the files written. Refuses a page that would fetch. */
export function renderGuides(outputDir: string): string[] {
  const guides = readGuides();
  mkdirSync(outputDir, { recursive: true });
  return guides.map((guide) => {
    const html = page(guide, guides);
    const offenders = findNetworkReferences(html);
    if (offenders.length > 0) throw new Error(`docs build: guides/${guide.slug}.md would load from the network:\n  ${offenders.join("\n  ")}`);
    const file = join(outputDir, `${guide.slug}.html`);
    writeFileSync(file, html);
    return file;
  });
}

/** The Markdown appended to the reference page's description: a link to every guide. */
export function guideLinks(guides: Guide[]): string {
  return `\n\n## Server guides\n\nMount \`@org/webinar-validator\` in your server: ${guides.map(({ slug, title }) => `[${title}](guides/${slug}.html)`).join(" · ")}.\n`;
}
