/**
 * Checks a watch page gets in real Chromium: the checks every page gets (@org/webinar-test-support/browser: axe-core,
 * CSP violations and uncaught errors, sideways scroll), and that its video plays.
 */
import type { Page } from "playwright-core";

export { pageProblems, seriousAxeViolations, sidewaysScroll } from "@org/webinar-test-support/browser";

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
