/**
 * Real Chromium for the console's end-to-end tests (@org/webinar-test-support/browser), with the checks every console
 * page gets: axe-core reports no serious or critical violation, no Content-Security-Policy violation was reported,
 * nothing scrolls sideways at a laptop's and a phone's width. With SCREENSHOTS=1 the pages'
 * screenshots for docs/console.md are saved too (a normal run leaves the checkout as it was).
 */
import { mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { launchChromium, pageProblems, seriousAxeViolations } from "@org/webinar-test-support/browser";
import type { Page } from "playwright-core";
import { expect } from "vitest";

/** Screenshots of each page, shown by docs/console.md. */
export const SCREENSHOTS_DIR = fileURLToPath(new URL("../../../../docs/console/", import.meta.url));

export { launchChromium, pageProblems, seriousAxeViolations };

/**
 * The widths every page must read at without scrolling sideways: a phone, then a laptop's window (the width the
 * tests run at and the screenshots show).
 */
const WIDTHS = [390, 1280] as const;

/**
 * What makes the page, or a box in its main region, scroll sideways at the current width: the page wider than the
 * window, an element of `main` reaching past either edge, or content (text too) running out of its element's box,
 * which is where a scrolling or clipped box would hide it. Form fields are left out (a long value scrolls inside a
 * field by nature), and so are elements hidden on purpose (visually-hidden captions, a stacked table's header). An
 * empty list passes.
 */
export function sidewaysOverflow(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const found: string[] = [];
    if (document.documentElement.scrollWidth > width)
      found.push(`the page is ${document.documentElement.scrollWidth}px wide in a ${width}px window`);
    const name = (element: Element) =>
      `<${element.tagName.toLowerCase()}${element.className === "" ? "" : ` class="${element.className}"`}> "${(element.textContent ?? "").trim().slice(0, 40)}"`;
    for (const element of document.querySelectorAll("main *")) {
      if (element.closest(".visually-hidden, .data-table > thead, input, select, textarea") !== null) continue;
      const style = getComputedStyle(element);
      const box = element.getBoundingClientRect();
      if (style.display === "none" || style.visibility === "hidden" || box.width === 0) continue;
      if (box.left < -0.5 || box.right > width + 0.5)
        found.push(`${name(element)} spans ${Math.round(box.left)}..${Math.round(box.right)}px`);
      else if (style.display !== "inline" && element.scrollWidth > element.clientWidth + 1)
        found.push(`${name(element)} holds ${element.scrollWidth}px in ${element.clientWidth}px`);
    }
    return found;
  });
}

/**
 * The checks of a page as it is now, at each of WIDTHS: nothing scrolls sideways, axe-core finds no serious or
 * critical violation, and `problems` (pageProblems) stays empty. Then, unless told otherwise, the page's screenshot
 * at a laptop's width is saved as docs/console/<name>.png (with SCREENSHOTS=1).
 */
export async function checkPage(
  page: Page,
  problems: string[],
  name: string,
  { screenshot: save = true }: { screenshot?: boolean } = {},
): Promise<void> {
  const height = page.viewportSize()?.height ?? 900;
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height });
    // Two frames: the layout of the new width, then anything that resized with it (the charts).
    await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
    expect(await sidewaysOverflow(page), `${name} at ${width}px`).toEqual([]);
    expect(await seriousAxeViolations(page), `axe on ${name} at ${width}px`).toEqual([]);
  }
  expect(problems, `problems on ${name}`).toEqual([]);
  if (save) await screenshot(page, name);
}

/** Saves a full-page screenshot as docs/console/<name>.png when SCREENSHOTS=1. */
export async function screenshot(page: Page, name: string): Promise<void> {
  if (process.env.SCREENSHOTS !== "1") return;
  mkdirSync(SCREENSHOTS_DIR, { recursive: true });
  await page.screenshot({ path: `${SCREENSHOTS_DIR}${name}.png`, fullPage: true });
}
