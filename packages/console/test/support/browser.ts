/**
 * Real Chromium (Debian's, through playwright-core) for the console's end-to-end tests, with the checks every page
 * gets: axe-core injected into the page reports no serious or critical violation, no Content-Security-Policy
 * violation was reported, and a screenshot of the page for docs/console.md.
 */
import { mkdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { type Browser, chromium, type Page } from "playwright-core";

const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const AXE_SCRIPT = createRequire(import.meta.url).resolve("axe-core/axe.min.js");
/** Screenshots of each page, shown by docs/console.md. */
export const SCREENSHOTS_DIR = fileURLToPath(new URL("../../../../docs/console/", import.meta.url));

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH });
}

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/**
 * axe-core's serious and critical violations on the page as it is now (an empty list passes). axe-core is evaluated
 * in the page through the DevTools protocol: a `<script>` tag (page.addScriptTag) would be refused by the console's
 * Content-Security-Policy, which the test keeps in force.
 */
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

/** Saves a full-page screenshot as docs/console/<name>.png. */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS_DIR, { recursive: true });
  await page.screenshot({ path: `${SCREENSHOTS_DIR}${name}.png`, fullPage: true });
}
