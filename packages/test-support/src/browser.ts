/**
 * Real Chromium (Debian's `chromium`, or CHROMIUM_PATH, through playwright-core) for every package's browser tests,
 * and the checks a page gets there: axe-core evaluated in the page through the DevTools protocol (a `<script>` tag
 * would be refused by the page's Content-Security-Policy, which the tests keep in force) reports no serious or
 * critical violation; the page's CSP violations and uncaught errors are recorded; nothing scrolls sideways.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { type Browser, chromium, type Page } from "playwright-core";

const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const AXE_SCRIPT = createRequire(import.meta.url).resolve("axe-core/axe.min.js");

/** Flags of a browser that reaches nothing but what the test serves: no background traffic of its own. */
const OFFLINE_FLAGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/** Launches Chromium; `offline` adds the flags that keep it from any traffic of its own. */
export function launchChromium({ offline = false }: { offline?: boolean } = {}): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, ...(offline ? { args: OFFLINE_FLAGS } : {}) });
}

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/** axe-core's serious and critical violations on the page as it is now (an empty list passes). */
export async function seriousAxeViolations(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(readFileSync(AXE_SCRIPT, "utf8"));
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(context: Document): Promise<{ violations: unknown[] }> } }).axe;
    return (await axe.run(document)).violations as AxeViolation[];
  });
  return violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map(
      (violation) =>
        `${violation.id} (${violation.impact}): ${violation.help} at ${JSON.stringify(violation.nodes.map((node) => node.target))}`,
    );
}

/** Records the page's CSP violations and uncaught errors from now on. */
export function pageProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error" && /Content Security Policy|Refused to/i.test(message.text()))
      problems.push(message.text());
  });
  page.on("pageerror", (error) => problems.push(`uncaught: ${error.message}`));
  return problems;
}

/** How far the page scrolls sideways (0: not at all). */
export function sidewaysScroll(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
}
