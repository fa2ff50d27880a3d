/**
 * Checks a watch page gets in real Chromium: axe-core (the console's own dev dependency too) evaluated in the page
 * through the DevTools protocol, so the page's Content-Security-Policy stays in force, reports no serious or
 * critical violation; the page's CSP violations and uncaught errors are recorded; nothing scrolls sideways.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Page } from "playwright-core";

const AXE_SCRIPT = createRequire(import.meta.url).resolve("axe-core/axe.min.js");

/** axe-core's serious and critical violations on the page as it is now (an empty list passes). */
export async function seriousAxeViolations(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(readFileSync(AXE_SCRIPT, "utf8"));
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(context: Document): Promise<{ violations: unknown[] }> } }).axe;
    return (await axe.run(document)).violations as {
      id: string;
      impact: string | null;
      help: string;
      nodes: { target: string[] }[];
    }[];
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

/** Resolves once the page's video has played at least `seconds` of picture. */
export async function videoPlays(page: Page, seconds = 1, timeout = 30_000): Promise<void> {
  const from = await page.evaluate(() => document.querySelector("video")!.currentTime);
  await page.waitForFunction(
    ([start, more]) => {
      const video = document.querySelector("video")!;
      return !video.paused && video.currentTime >= start! + more!;
    },
    [from, seconds],
    { timeout },
  );
}
