/**
 * The server guides, `guides/*.md`, which `site.ts` renders into pages under `dist/guides/`.
 *
 * The guides' code is real files under `guides/samples/` that `test/guides.test.ts` runs. A paragraph that is only
 * a link to a sample (`[samples/express.ts](samples/express.ts)`) becomes that file's code on the page; on GitHub
 * it stays a link to the file. Links to another guide (`fastify.md`) point at its page.
 */
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const guidesDir = resolve(dirname(fileURLToPath(import.meta.url)), "..", "guides");

/** The guides, in the order of the navigation: file `guides/<slug>.md`, page `guides/<slug>.html`. */
export const guideSlugs = ["express", "fastify", "hono", "node-http", "verifier", "conformance"] as const;

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

const escapeHtml = (text: string) =>
  text.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll('"', "&quot;");

/** The guide's Markdown with each sample link replaced by the sample's code under its name. */
export function withSamples(guide: Guide): string {
  return guide.markdown.replace(SAMPLE_LINK, (_link, sample: string) => {
    const language = sample.endsWith(".ts") ? "ts" : "";
    return `<p class="sample-name">${escapeHtml(sample)}</p>\n\n\`\`\`\`${language}\n${sampleSource(sample)}\n\`\`\`\`\n`;
  });
}

/** Guides about testing a server rather than mounting the validator in it. */
const TESTING_GUIDES: readonly string[] = ["conformance"];

/** The Markdown appended to the reference page's description: a link to every guide. */
export function guideLinks(guides: Guide[]): string {
  const link = ({ slug, title }: Guide) => `[${title}](guides/${slug}.html)`;
  const mounting = guides.filter((guide) => !TESTING_GUIDES.includes(guide.slug)).map(link);
  const testing = guides.filter((guide) => TESTING_GUIDES.includes(guide.slug)).map(link);
  const tests = testing.length === 0 ? "" : ` ${testing.join(" · ")} with \`@org/webinar-conformance\`.`;
  return `\n\n## Server guides\n\nMount \`@org/webinar-validator\` in your server: ${mounting.join(" · ")}.${tests}\n`;
}
