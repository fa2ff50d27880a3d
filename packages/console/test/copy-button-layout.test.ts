/**
 * The copy button (src/components/copy-button.tsx) after a long value, as the webinar card shows a watch link:
 * at no width of its box does the row stick out sideways, with or without a status said. The width where the
 * button just ends the line is the one a real page meets only with some ticket codes, so every width is tried.
 */
import { readFileSync } from "node:fs";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium } from "./support/browser";

const STYLES = readFileSync(new URL("../src/styles.css", import.meta.url), "utf8");
const URL_TEXT = "http://127.0.0.1:39079/w/wbn-h8DuHbJ53E";

/** The widths of the value's box, among those tried, whose content is wider than the box. */
async function overflowingWidths(page: Page, status: string): Promise<number[]> {
  await page.setContent(
    `<style>${STYLES}</style><main><dl class="pairs"><dt>Watch link</dt><dd><a href="#">${URL_TEXT}</a> <button type="button" class="secondary">Copy link</button><span role="status" class="copy-status">${status}</span></dd></dl></main>`,
  );
  return page.evaluate(() => {
    const list = document.querySelector("dl")!;
    const value = document.querySelector("dd")!;
    const over: number[] = [];
    for (let width = 150; width <= 700; width += 1) {
      value.style.width = `${width}px`;
      list.style.width = `${width + 150}px`;
      if (value.scrollWidth > value.clientWidth + 1) over.push(width);
    }
    return over;
  });
}

describe("the copy button after a long value", () => {
  let browser: Browser;
  let page: Page;
  beforeAll(async () => {
    browser = await launchChromium();
    page = await browser.newPage();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it.each([
    ["nothing said yet", ""],
    ["copied", "Copied"],
  ])("never sticks out of its box: %s", async (_name, status) => {
    expect(await overflowingWidths(page, status)).toEqual([]);
  });
});
