/**
 * Finds what would make a page fetch from another origin, so the build can refuse to write a page that would not
 * work offline. Shared by the reference page and the guides.
 */

/**
 * Markup-level references that make a browser fetch on load: external `<script src>`, stylesheet,
 * font or icon `<link href>`, media `src`, and CSS `@import`/`url()` on another origin. Fetches made
 * later by the inlined script are caught by the browser test (`test/render.test.ts`), not here.
 */
export function findNetworkReferences(html: string): string[] {
  const found = new Set<string>();
  const patterns = [
    /<script\b[^>]*\bsrc\s*=\s*["']?((?:https?:)?\/\/[^"'\s>]+)/gi,
    /<link\b[^>]*\bhref\s*=\s*["']?((?:https?:)?\/\/[^"'\s>]+)/gi,
    /<(?:img|iframe|source|video|audio)\b[^>]*\bsrc\s*=\s*["']?((?:https?:)?\/\/[^"'\s>]+)/gi,
    /@import\s+(?:url\()?\s*["']?((?:https?:)?\/\/[^"')\s;]+)/gi,
    /url\(\s*["']?((?:https?:)?\/\/[^"')\s]+)/gi,
  ];
  for (const pattern of patterns) {
    for (const match of html.matchAll(pattern)) {
      if (match[1] !== undefined) found.add(match[1]);
    }
  }
  return [...found].sort();
}
