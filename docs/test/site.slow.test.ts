/**
 * Every page of the site, from `dist/`, opened in Debian's Chromium at 1280 and 390 px with every other host
 * blocked: each has the one navigation, keeps code inside its block (every operation of every reference opened),
 * never scrolls sideways as a whole, links pages that exist, logs no error and asks nothing of the network.
 */
import { existsSync, readFileSync } from "node:fs";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { dirname, join } from "node:path";
import { launchChromium } from "@org/webinar-test-support/browser";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { buildDocs, defaultOutputPath } from "../scripts/build.ts";
import { downloads, navigationLinks, readMarkdownPages, referencePages, serverDocumentPath } from "../scripts/site.ts";
import { serveDirectory } from "./serve.ts";

const distDir = dirname(defaultOutputPath);

const { pages, guides, changelog } = readMarkdownPages();
const sitePages = [...referencePages, ...pages, ...guides, changelog];
const widths = [1280, 390] as const;

beforeAll(() => {
  const expected = [...sitePages, ...downloads].map(({ path }) => join(distDir, path));
  if (!expected.every((file) => existsSync(file))) buildDocs();
}, 120_000);

describe("docs: every page in Chromium, offline, at 1280 and 390 px", () => {
  let server: Server;
  let origin: string;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const offMachine = new Set<string>();
  const errors: string[] = [];

  beforeAll(async () => {
    server = await serveDirectory(distDir);
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    browser = await launchChromium({ offline: true });
    context = await browser.newContext({ viewport: { width: 1280, height: 900 }, serviceWorkers: "block" });
    const isLocal = (url: string) => url.startsWith(`${origin}/`) || url === origin || /^(data|blob|about):/.test(url);
    // Every request is recorded; one that would leave the machine is refused and remembered.
    await context.route("**/*", async (route) => {
      const url = route.request().url();
      if (isLocal(url)) return route.continue();
      offMachine.add(`${route.request().method()} ${url}`);
      return route.abort("blockedbyclient");
    });
    await context.routeWebSocket(/.*/, (socket) => {
      offMachine.add(`WebSocket ${socket.url()}`);
      return socket.close();
    });
    context.on("request", (request) => {
      if (!isLocal(request.url())) offMachine.add(`${request.method()} ${request.url()}`);
    });
    page = await context.newPage();
    page.on("console", (message) => {
      if (message.type() === "error") errors.push(`${message.text()} @ ${message.location().url}`);
    });
    page.on("pageerror", (error) => errors.push(`page error: ${error.message}`));
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise<void>((done) => (server ? server.close(() => done()) : done()));
  });

  const cases = sitePages.flatMap((sitePage) => widths.map((width) => [sitePage.path, width, sitePage] as const));

  it.each(cases)(
    "%s at %i px: one navigation, code stays in its block, no sideways page scroll",
    async (path, width, sitePage) => {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(`${origin}/${path}`, { waitUntil: "load" });
      await page.locator("h1").first().waitFor({ state: "visible", timeout: 15_000 });
      if (referencePages.some((reference) => reference.path === path)) await growViewportToPage(page);

      const navigation = await page
        .locator("nav.site-nav a")
        .evaluateAll((links) => links.map((link) => (link as HTMLAnchorElement).href));
      expect(navigation).toEqual(navigationLinks().map((link) => `${origin}/${link.path}`));
      expect(await page.locator(`nav.site-nav a[aria-current="page"]`).textContent()).toBe(sitePage.title);

      const pageHasCode = path === "index.html" || guides.some((guide) => guide.path === path);
      await expectCodeInsideBlocks(page, `${path} at ${width}px`, pageHasCode);
    },
  );

  // Redoc shows an operation's code samples and response examples once the operation is open: open each one.
  const operationCases = referencePages.flatMap((reference) =>
    referenceOperations(reference.path).flatMap((operation) =>
      widths.map((width) => [`${reference.path}#operation/${operation.operationId}`, width, operation] as const),
    ),
  );

  it.each(operationCases)(
    "%s at %i px: code samples stay in their block, no sideways page scroll",
    async (url, width, operation) => {
      await page.setViewportSize({ width, height: 900 });
      await page.goto(`${origin}/${url}`, { waitUntil: "load" });
      await page
        .locator("h1, h2, h3")
        .filter({ hasText: new RegExp(`^\\s*${operation.summary.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\s*$`) })
        .first()
        .waitFor({ state: "visible", timeout: 15_000 });
      await expectCodeInsideBlocks(page, `${url} at ${width}px`, operation.hasSamples);
    },
  );

  it("the reference links the downloads, the server's references and every page; each link answers", async () => {
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`${origin}/index.html`);
    for (const { path } of [...downloads, ...referencePages.slice(1), ...pages, changelog]) {
      await page.locator(`#redoc a[href="${path}"]`).first().waitFor({ state: "attached", timeout: 10_000 });
      expect((await page.request.get(`${origin}/${path}`)).status(), path).toBe(200);
    }
  });

  it("the signing page links the test vectors; the login-ticket page states the lifetime and what expiry means", async () => {
    await page.goto(`${origin}/signing.html`);
    expect(await page.locator(`main a[href="signing-vectors.json"]`).count()).toBeGreaterThan(0);
    await page.goto(`${origin}/login-tickets.html`);
    const text = (await page.locator("main").textContent()) ?? "";
    expect(text).toContain("60 seconds");
    expect(text).toContain("WEBINAR_TICKET_TTL_SECONDS");
    expect(text).toMatch(/calls issueLoginTicket again/);
  });

  it("the versioning page states the shared version and the major rule", async () => {
    await page.goto(`${origin}/versioning.html`);
    const text = ((await page.locator("main").textContent()) ?? "").replace(/\s+/g, " ");
    expect(text).toMatch(/share one version/);
    expect(text).toMatch(/major/);
  });

  it("every link between pages leads to a page that exists, and to a heading that exists", async () => {
    for (const sitePage of [...pages, ...guides, changelog]) {
      await page.goto(`${origin}/${sitePage.path}`);
      const links = await page
        .locator("a[href]")
        .evaluateAll((anchors) => anchors.map((anchor) => (anchor as HTMLAnchorElement).href));
      for (const link of links.filter((href) => href.startsWith(origin))) {
        const url = new URL(link);
        const response = await page.request.get(`${url.origin}${url.pathname}`);
        expect(response.status(), `${sitePage.path} -> ${link}`).toBe(200);
        const isReference = referencePages.some((reference) => url.pathname.endsWith(`/${reference.path}`));
        if (url.hash !== "" && url.pathname.endsWith(".html") && !isReference) {
          expect(await response.text(), link).toContain(`id="${url.hash.slice(1)}"`);
        }
      }
    }
  });

  // These two run last so they cover every page above.
  it("logs no console errors and no page errors", () => {
    expect(errors).toEqual([]);
  });

  it("makes no request beyond 127.0.0.1 (works offline)", () => {
    expect([...offMachine]).toEqual([]);
  });
});

/** Grows the viewport, at its width, to the page's height, so that Redoc draws (and keeps) every section. */
async function growViewportToPage(page: Page): Promise<void> {
  const width = page.viewportSize()?.width ?? 1280;
  let height = 0;
  for (let round = 0; round < 8; round += 1) {
    const scrollHeight = await page.evaluate(() => document.documentElement.scrollHeight);
    if (scrollHeight <= height) break;
    height = scrollHeight;
    await page.setViewportSize({ width, height: Math.min(height, 60_000) });
    await page.waitForTimeout(300);
  }
}

/**
 * The page never scrolls sideways as a whole (`scrollWidth <= innerWidth`), and every visible `pre` either wraps
 * (its content fits its box) or scrolls inside itself (`overflow-x: auto|scroll`), its box inside the viewport.
 */
async function expectCodeInsideBlocks(page: Page, label: string, expectCode: boolean): Promise<void> {
  const layout = await page.evaluate(() => {
    const blocks = [...document.querySelectorAll("pre")].filter((pre) => pre.getClientRects().length > 0);
    return {
      scrollWidth: document.documentElement.scrollWidth,
      innerWidth: window.innerWidth,
      blocks: blocks.map((pre) => {
        const style = getComputedStyle(pre);
        const box = pre.getBoundingClientRect();
        return {
          text: (pre.textContent ?? "").slice(0, 60),
          wraps: pre.scrollWidth <= pre.clientWidth + 1,
          scrolls: style.overflowX === "auto" || style.overflowX === "scroll",
          right: box.right + window.scrollX,
        };
      }),
    };
  });
  const scrolling = layout.blocks.filter((block) => !block.wraps).length;
  console.log(
    `${label}: page ${layout.scrollWidth}/${layout.innerWidth} px wide, ${layout.blocks.length} code blocks (${scrolling} wider than their box, scrolling inside it)`,
  );
  expect(layout.scrollWidth, label).toBeLessThanOrEqual(layout.innerWidth);
  if (expectCode) expect(layout.blocks.length, `${label} shows code`).toBeGreaterThan(0);
  for (const block of layout.blocks) {
    expect(block.wraps || block.scrolls, `${label}: ${block.text}`).toBe(true);
    expect(block.right, `${label}: ${block.text}`).toBeLessThanOrEqual(layout.innerWidth + 1);
  }
}

/** The operations of a reference page's document: id, summary, and whether it has code samples. */
function referenceOperations(path: string): Array<{ operationId: string; summary: string; hasSamples: boolean }> {
  const serverDocument = referencePages.find((reference) => reference.path === path)?.serverDocument;
  const source = serverDocument === undefined ? join(distDir, "openapi.json") : serverDocumentPath(serverDocument);
  if (!existsSync(source)) buildDocs();
  const document = parse(readFileSync(source, "utf8")) as { paths?: Record<string, Record<string, unknown>> };
  const operations: Array<{ operationId: string; summary: string; hasSamples: boolean }> = [];
  for (const pathItem of Object.values(document.paths ?? {})) {
    for (const value of Object.values(pathItem)) {
      const operation = value as { operationId?: string; summary?: string; "x-codeSamples"?: unknown[] };
      if (typeof operation?.operationId !== "string") continue;
      operations.push({
        operationId: operation.operationId,
        summary: operation.summary ?? operation.operationId,
        hasSamples: (operation["x-codeSamples"] ?? []).length > 0,
      });
    }
  }
  return operations;
}
