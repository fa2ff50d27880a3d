/**
 * Opens the built reference (`dist/index.html`) and the server guides (`dist/guides/*.html`) in Debian's
 * Chromium, served from 127.0.0.1 with every other destination blocked, and checks that a reader without
 * network access gets every page whole: every operation and every guide of the spec renders, the code
 * samples are there, the server guides show their sample files and link to each other and to the
 * reference, nothing logs an error and nothing even tries to leave the machine. What to look for is read
 * from the spec and the guides themselves.
 */
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { launchChromium } from "@org/webinar-test-support/browser";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { buildDocs, defaultOutputPath, PAGE_TITLE, resolveSpecPath } from "../scripts/build.ts";
import { readGuides, sampleSource } from "../scripts/guides.ts";
import { navigationLinks } from "../scripts/site.ts";
import { serveDirectory } from "./serve.ts";

const docsDir = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const distDir = dirname(defaultOutputPath);
const screenshotPath = join(docsDir, "screenshots", "reference.png");
const specPath = resolveSpecPath();

// The service has exactly these four operations (the reference's description: "Exactly four operations exist");
// their summaries come from the spec.
const expectedOperationIds = ["upsertViewer", "issueLoginTicket", "getWatchOverview", "queryViewerWatch"];

interface SpecOperation {
  operationId: string;
  summary: string;
  codeSamples: Array<{ label: string; source: string }>;
}

interface SpecGuide {
  name: string;
  description: string;
}

const spec = readSpec(specPath);
const serverGuides = readGuides();

describe("docs: the reference renders offline from dist/index.html", () => {
  let server: Server;
  let origin: string;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const blockedRequests = new Set<string>();
  const consoleErrors: string[] = [];

  beforeAll(async () => {
    // A missing page means nobody ran the build yet (a bare `vitest run`): build it rather than fail
    // on a 404 that says nothing.
    const guidePages = serverGuides.map(({ slug }) => join(distDir, "guides", `${slug}.html`));
    if (![defaultOutputPath, ...guidePages].every((file) => existsSync(file))) buildDocs({ specPath });

    server = await serveDirectory(distDir);
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    browser = await launchChromium({ offline: true });
    context = await browser.newContext({ viewport: { width: 1280, height: 900 }, serviceWorkers: "block" });

    const isLocal = (url: string) => url.startsWith(`${origin}/`) || url === origin || /^(data|blob|about):/.test(url);
    await context.route("**/*", async (route) => {
      const url = route.request().url();
      if (isLocal(url)) return route.continue();
      blockedRequests.add(`${route.request().method()} ${url}`);
      return route.abort("blockedbyclient");
    });
    await context.routeWebSocket(/.*/, (socket) => {
      blockedRequests.add(`WebSocket ${socket.url()}`);
      return socket.close();
    });
    // Second witness, for any request that would not pass through the route above.
    context.on("request", (request) => {
      if (!isLocal(request.url())) blockedRequests.add(`${request.method()} ${request.url()}`);
    });

    page = await context.newPage();
    page.on("console", (message) => {
      if (message.type() === "error") consoleErrors.push(`${message.text()} @ ${message.location().url}`);
    });
    page.on("pageerror", (error) => consoleErrors.push(`page error: ${error.message}`));

    await page.goto(`${origin}/index.html`, { waitUntil: "load" });
    await page.locator("h1").filter({ hasText: spec.title }).first().waitFor({ state: "visible", timeout: 15_000 });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise<void>((done) => (server ? server.close(() => done()) : done()));
  });

  it("the page is titled after the API", async () => {
    expect(await page.title()).toBe(PAGE_TITLE);
  });

  it("the spec documents exactly the four operations its description names", () => {
    expect(spec.operations.map((operation) => operation.operationId).sort()).toEqual([...expectedOperationIds].sort());
  });

  it.each(expectedOperationIds)("operation %s renders under its summary, with its code samples", async (id) => {
    const operation = spec.operations.find((candidate) => candidate.operationId === id);
    if (operation === undefined) throw new Error(`${id} is not in ${specPath}`);
    // The spec's own cross-links use this form (`#operation/<operationId>`), so this also proves they work.
    await page.goto(`${origin}/index.html#operation/${id}`);
    const heading = headingNamed(page, operation.summary);
    await heading.waitFor({ state: "visible", timeout: 10_000 });
    expect(await heading.isVisible()).toBe(true);

    const [firstSample] = operation.codeSamples;
    if (firstSample !== undefined) {
      // Redoc shows the first sample's label on its language switch and that sample's code below it.
      const firstLine = firstSample.source.split("\n").find((line) => line.trim() !== "") ?? "";
      await page.getByText(firstSample.label, { exact: true }).first().waitFor({ state: "visible", timeout: 10_000 });
      const pageText = normalizeSpace(await page.evaluate(() => document.body.textContent ?? ""));
      expect(pageText).toContain(normalizeSpace(firstLine));
    }
  });

  it("the spec has guides (tags with x-traitTag: true)", () => {
    expect(spec.guides.length).toBeGreaterThan(0);
  });

  it.each(spec.guides.map((guide) => [guide.name, guide] as const))(
    "guide %s renders from the sidebar",
    async (_name, guide) => {
      await page.goto(`${origin}/index.html`);
      // The sidebar entry, not one of the description's cross-links with the same text.
      await page
        .locator("[data-component-name='Menu/Menu']")
        .getByRole("link", { name: guide.name, exact: true })
        .first()
        .click();
      const heading = headingNamed(page, guide.name);
      await heading.waitFor({ state: "visible", timeout: 10_000 });
      expect(await heading.isVisible()).toBe(true);

      const opening = plainOpening(guide.description);
      if (opening !== undefined) {
        await page.getByText(opening).first().waitFor({ state: "visible", timeout: 10_000 });
        expect(await page.getByText(opening).first().isVisible()).toBe(true);
      }
    },
  );

  it("the reference's description links every server guide, and following a link opens it", async () => {
    await page.goto(`${origin}/index.html`);
    for (const guide of serverGuides) {
      await page.locator(`a[href="guides/${guide.slug}.html"]`).first().waitFor({ state: "attached", timeout: 10_000 });
    }
    const [first] = serverGuides;
    if (first === undefined) throw new Error("no server guide in docs/guides");
    await page.locator(`a[href="guides/${first.slug}.html"]`).first().click();
    await page.waitForURL(`${origin}/guides/${first.slug}.html`);
    expect(await headingNamed(page, first.title).isVisible()).toBe(true);
  });

  it.each(serverGuides.map((guide) => [guide.title, guide] as const))(
    "server guide %s renders with its sample files, and every link on it leads somewhere",
    async (_title, guide) => {
      await page.goto(`${origin}/guides/${guide.slug}.html`);
      await headingNamed(page, guide.title).waitFor({ state: "visible", timeout: 10_000 });
      expect(await page.title()).toContain(guide.title);

      // The sample files themselves, byte for byte: the code a test runs is the code a reader sees.
      const blocks = (await page.locator("pre").allTextContents()).map((text) => text.trimEnd());
      expect(guide.samples.length).toBeGreaterThan(0);
      for (const sample of guide.samples) expect(blocks).toContain(sampleSource(sample));

      // The site's navigation: the references, every page and guide, the changelog and the downloads.
      const navigation = await page
        .locator("nav.site-nav a")
        .evaluateAll((links) => links.map((link) => (link as HTMLAnchorElement).href));
      expect(navigation).toEqual(navigationLinks().map(({ path }) => `${origin}/${path}`));

      // Every link of the page: another page here exists, an anchor names a heading of its page.
      const links = await page
        .locator("a[href]")
        .evaluateAll((anchors) => anchors.map((anchor) => (anchor as HTMLAnchorElement).href));
      for (const link of links.filter((href) => href.startsWith(origin))) {
        const url = new URL(link);
        expect((await page.request.get(`${url.origin}${url.pathname}`)).status(), link).toBe(200);
        if (url.hash === "") continue;
        const target = await page.request.get(`${url.origin}${url.pathname}`).then((response) => response.text());
        expect(target, link).toContain(`id="${url.hash.slice(1)}"`);
      }
    },
  );

  it("writes a full-page screenshot to docs/screenshots/reference.png", async () => {
    await page.goto(`${origin}/index.html`);
    await page.locator("h1").filter({ hasText: spec.title }).first().waitFor({ state: "visible" });
    // Redoc renders only the sections inside the viewport (and drops them again when they leave it):
    // the capture is taken through a viewport as tall as the page, so every section is drawn.
    // Operations stay folded under their tag here (Redoc unfolds one tag at a time); the tests above
    // open each of them. The capture must show every guide.
    await growViewportToPage(page);
    const missing: string[] = [];
    for (const guide of spec.guides) {
      if (!(await headingNamed(page, guide.name).isVisible())) missing.push(guide.name);
    }
    mkdirSync(dirname(screenshotPath), { recursive: true });
    const png = await page.screenshot({ path: screenshotPath, fullPage: true });
    await page.setViewportSize({ width: 1280, height: 900 });
    expect(png.byteLength).toBeGreaterThan(10_000);
    expect(missing).toEqual([]);
  });

  // These two run last so they cover every navigation above.
  it("logs no console errors and no page errors", () => {
    expect(consoleErrors).toEqual([]);
  });

  it("makes no request beyond 127.0.0.1 (works offline)", () => {
    expect([...blockedRequests]).toEqual([]);
  });
});

function headingNamed(page: Page, text: string) {
  return page
    .locator("h1, h2, h3")
    .filter({ hasText: new RegExp(`^\\s*${escapeRegExp(text)}\\s*$`) })
    .first();
}

async function growViewportToPage(page: Page): Promise<void> {
  const width = page.viewportSize()?.width ?? 1280;
  let height = 0;
  for (let round = 0; round < 8; round += 1) {
    const scrollHeight = await page.evaluate(() => document.documentElement.scrollHeight);
    if (scrollHeight <= height) break;
    height = scrollHeight;
    await page.setViewportSize({ width, height: Math.min(height, 60_000) });
    await page.waitForTimeout(500);
  }
}

/**
 * The first sentence of a Markdown description as the reader sees it, or undefined when it holds
 * markup this simple conversion cannot predict (tables, HTML, images).
 */
function plainOpening(markdown: string): string | undefined {
  const firstParagraph = markdown.trim().split(/\n\s*\n/)[0] ?? "";
  const text = firstParagraph
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/[*_`]/g, "")
    .replace(/\s+/g, " ")
    .trim();
  const sentence = /^.*?[.!?](?=\s|$)/.exec(text)?.[0] ?? text;
  if (sentence.length < 8 || /[|<>#!]/.test(sentence)) return undefined;
  return sentence;
}

function normalizeSpace(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

function readSpec(path: string): { title: string; operations: SpecOperation[]; guides: SpecGuide[] } {
  if (!existsSync(path)) throw new Error(`docs test: no spec at ${path} (set DOCS_SPEC to try another file)`);
  const document = parse(readFileSync(path, "utf8")) as {
    info?: { title?: string };
    tags?: Array<{ name: string; description?: string; "x-traitTag"?: boolean }>;
    paths?: Record<string, Record<string, unknown>>;
  };
  const operations: SpecOperation[] = [];
  for (const pathItem of Object.values(document.paths ?? {})) {
    for (const value of Object.values(pathItem)) {
      const operation = value as {
        operationId?: string;
        summary?: string;
        "x-codeSamples"?: Array<{ lang: string; label?: string; source: string | { $ref: string } }>;
      };
      if (typeof operation?.operationId !== "string") continue;
      operations.push({
        operationId: operation.operationId,
        summary: operation.summary ?? operation.operationId,
        codeSamples: (operation["x-codeSamples"] ?? []).map((sample) => ({
          label: sample.label ?? sample.lang,
          source:
            typeof sample.source === "string"
              ? sample.source
              : readFileSync(resolve(dirname(path), sample.source.$ref), "utf8"),
        })),
      });
    }
  }
  const guides = (document.tags ?? [])
    .filter((tag) => tag["x-traitTag"] === true)
    .map((tag) => ({ name: tag.name, description: tag.description ?? "" }));
  return { title: document.info?.title ?? "", operations, guides };
}
