/**
 * The console in real Chromium against the built reference server (PGlite): a person given only an invite link
 * chooses a password and signs in, creates an API key, integrates it with the `webinar` CLI, finds that request in
 * the request log by its request id, reads the canonical string the server computed for a request signed with a
 * wrong secret, revokes the key and sees the CLI refused. Each page passes axe-core (no serious or critical
 * violation), reports no CSP violation, and is saved as a screenshot for docs/console.md.
 */
import { readFile } from "node:fs/promises";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkPage, launchChromium, pageProblems, screenshot } from "./support/browser";
import { type ConsoleServer, consoleMerchant, startConsoleServer } from "./support/console-server";
import { runWebinarCli } from "./support/webinar-cli";

const EMAIL = "ana@example.com";
const PASSWORD = "correct horse battery";

let server: ConsoleServer;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let problems: string[];
let inviteUrl: string;
/** The key the person creates in the console. */
let key: { apiKey: string; secret: string };

beforeAll(async () => {
  server = await startConsoleServer("pglite");
  const merchant = await consoleMerchant(server, "Console keys merchant");
  inviteUrl = await merchant.invite(EMAIL);
  browser = await launchChromium();
  context = await browser.newContext({
    locale: "en-US",
    acceptDownloads: true,
    viewport: { width: 1280, height: 900 },
  });
  page = await context.newPage();
  problems = pageProblems(page);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** The checks every page gets (support/browser.ts), then its screenshot. */
const checkThisPage = (name: string, options?: { screenshot?: boolean }) => checkPage(page, problems, name, options);

/** Searches the request log for one request id until the row shows (the log is written in batches). */
async function findLoggedRequest(requestId: string) {
  await page.getByRole("link", { name: "Request log" }).click();
  await page.getByRole("heading", { level: 1, name: "Request log" }).waitFor();
  await page.getByLabel("Request id").fill(requestId);
  const row = page.locator(`tr[data-request-id="${requestId}"]`);
  const deadline = Date.now() + 30_000;
  while (!(await row.isVisible())) {
    if (Date.now() > deadline) throw new Error(`request ${requestId} did not appear in the log:\n${server.output()}`);
    await page.getByRole("button", { name: "Search" }).click();
    await page.waitForTimeout(500);
  }
  return row;
}

describe("the merchant console, keys and request log", () => {
  it("accepts the invite with a password of at least 12 characters and signs the person in", async () => {
    await page.goto(inviteUrl);
    await page.getByRole("heading", { level: 1, name: "Accept your invite" }).waitFor();
    // The token leaves the address bar at once.
    expect(page.url()).toBe(`${server.url}/console/invite`);
    // The tab shows the console's icon, one of the built files the server serves.
    const icon = await page.locator('link[rel="icon"]').getAttribute("href");
    const iconAnswer = await page.request.get(`${server.url}${icon}`);
    expect(iconAnswer.status()).toBe(200);
    expect(iconAnswer.headers()["content-type"]).toMatch(/^image\/svg\+xml(;|$)/);
    await checkThisPage("invite");
    await page.getByLabel("New password").fill("too short");
    await page.getByLabel("Repeat the password").fill("too short");
    await page.getByRole("button", { name: "Set password and sign in" }).click();
    await page.getByRole("alert").getByText("The password needs at least 12 characters.").waitFor();
    await page.getByLabel("New password").fill(PASSWORD);
    await page.getByLabel("Repeat the password").fill(PASSWORD);
    await page.getByRole("button", { name: "Set password and sign in" }).click();
    await page.getByRole("heading", { level: 1, name: "Webinars" }).waitFor();
    await page.getByText(EMAIL).waitFor();
  });

  it("refuses the used invite, signs out and signs in with email and password", async () => {
    await page.getByRole("button", { name: "Sign out", exact: true }).click();
    await page.getByRole("heading", { level: 1, name: "Sign in" }).waitFor();
    await page.goto(inviteUrl);
    await page.getByLabel("New password").fill(PASSWORD);
    await page.getByLabel("Repeat the password").fill(PASSWORD);
    await page.getByRole("button", { name: "Set password and sign in" }).click();
    await page.getByRole("alert").getByText("This invite link was already used", { exact: false }).waitFor();

    await page.goto(`${server.url}/console/api-keys`);
    // Without a session the page asks to sign in, and returns to the page asked for.
    await page.getByRole("heading", { level: 1, name: "Sign in" }).waitFor();
    await checkThisPage("sign-in");
    await page.getByLabel("Email").fill(EMAIL);
    await page.getByLabel("Password").fill("wrong password");
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("alert").getByText("The email or the password is wrong.").waitFor();
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("heading", { level: 1, name: "API keys" }).waitFor();
    expect(page.url()).toBe(`${server.url}/console/api-keys`);
  });

  it("creates a key, shows its secret once and offers it as a .env file", async () => {
    await page.getByRole("button", { name: "Create API key" }).click();
    await page.getByRole("heading", { name: "Your new API key" }).waitFor();
    key = {
      apiKey: (await page.getByTestId("new-api-key").textContent())!,
      secret: (await page.getByTestId("new-secret").textContent())!,
    };
    expect(key.apiKey).not.toBe("");
    expect(key.secret.length).toBeGreaterThan(10);
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: server.url });
    await page.getByRole("button", { name: "Copy secret" }).click();
    await page.getByRole("status").getByText("Copied.").waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key.secret);
    const download = page.waitForEvent("download");
    await page.getByRole("link", { name: "Download as .env" }).click();
    const env = await readFile((await (await download).path())!, "utf8");
    expect(env).toBe(
      `WEBINAR_BASE_URL=${server.url}\nWEBINAR_API_KEY=${key.apiKey}\nWEBINAR_API_SECRET=${key.secret}\n`,
    );
    const row = page.locator(`tr[data-api-key="${key.apiKey}"]`);
    await row.getByText("Active").waitFor();
    await row.getByText("Never").waitFor();
    await page.getByRole("cell", { name: "API key created" }).first().waitFor();
    await checkThisPage("api-keys-created");
    await page.getByRole("button", { name: "I have saved the secret" }).click();
    expect(await page.getByTestId("new-secret").count()).toBe(0);
  });

  it("finds the CLI's signed upsert in the request log by its request id", async () => {
    const upsert = await runWebinarCli(["upsert", "--external-user-id", "console-e2e-1"], {
      baseUrl: server.url,
      ...key,
    });
    expect(upsert.code, upsert.stderr).toBe(0);
    const requestId = upsert.json.requestId as string;
    const row = await findLoggedRequest(requestId);
    const cells = await row.locator("td").allTextContents();
    expect(cells.slice(1, 6)).toEqual([key.apiKey, "upsertViewer", "200", "—", requestId]);
    expect(cells[6]).toMatch(/^\d+ ms$/);
  });

  it("shows the canonical string the server computed for a request signed with a wrong secret", async () => {
    const refused = await runWebinarCli(["upsert", "--external-user-id", "console-e2e-2"], {
      baseUrl: server.url,
      apiKey: key.apiKey,
      secret: `${key.secret}x`,
    });
    expect(refused.code).toBe(1);
    expect(refused.json.error).toMatchObject({ status: 401, code: "OPEN_API_UNAUTHORIZED" });
    const requestId = refused.json.error.requestId as string;
    const row = await findLoggedRequest(requestId);
    expect((await row.locator("td").allTextContents()).slice(3, 5)).toEqual(["401", "OPEN_API_UNAUTHORIZED"]);
    await row.getByRole("button", { name: "Why refused?" }).click();
    const canonical = (await page.getByTestId("canonical-string").textContent())!.split("\n");
    expect(canonical).toHaveLength(6);
    expect(canonical.slice(0, 3)).toEqual([key.apiKey, "POST", "/api/v1/open/viewers/upsert"]);
    expect(Math.abs(Number(canonical[3]) - Date.now() / 1000)).toBeLessThan(120);
    expect(canonical[4]).toMatch(/^[A-Za-z0-9_-]{16,128}$/);
    expect(canonical[5]).toMatch(/^[0-9a-f]{64}$/);
    // Never the secret, never the body.
    expect(await page.locator("main").textContent()).not.toContain(key.secret);
    expect(await page.locator("main").textContent()).not.toContain("console-e2e-2");
    await checkThisPage("request-log");
    // The guide shows the same detail on a phone, where each request is a block of labelled lines.
    await page.setViewportSize({ width: 390, height: 900 });
    await screenshot(page, "request-log-phone");
    await page.setViewportSize({ width: 1280, height: 900 });
  });

  it("filters the request log by status, error code, operation and key", async () => {
    const statuses = () => page.locator("tbody tr[data-request-id] td:nth-child(4)").allTextContents();
    await page.getByLabel("Request id").fill("");
    await page.getByLabel("Status").fill("4xx");
    await page.getByRole("button", { name: "Search" }).click();
    await expect.poll(statuses).toEqual(["401"]);
    // The filters are in the address: a reload shows the same search, in the form and in the table.
    expect(new URL(page.url()).searchParams.get("status")).toBe("4xx");
    await page.reload();
    await expect.poll(statuses).toEqual(["401"]);
    expect(await page.getByLabel("Status").inputValue()).toBe("4xx");
    await page.getByLabel("Status").fill("");
    await page.getByLabel("Error code").fill("NONE");
    await page.getByLabel("Operation").selectOption("upsertViewer");
    await page.getByLabel("API key").selectOption(key.apiKey);
    await page.getByRole("button", { name: "Search" }).click();
    await expect.poll(statuses).toEqual(["200"]);
    await page.getByRole("button", { name: "Clear filters" }).click();
    await expect.poll(statuses).toEqual(["401", "200"]);
  });

  it("rolls a key with a grace period: both keys sign until it ends", async () => {
    await page.getByRole("link", { name: "API keys" }).click();
    await page.getByRole("button", { name: `Roll ${key.apiKey}` }).click();
    const dialog = page.getByRole("dialog", { name: `Roll ${key.apiKey}` });
    await dialog.getByLabel("Old key keeps working for").selectOption({ label: "1 hour" });
    await checkThisPage("the roll dialog", { screenshot: false });
    await dialog.getByRole("button", { name: "Roll" }).click();
    await page.getByText(`The previous key ${key.apiKey} keeps working until`, { exact: false }).waitFor();
    const rolled = {
      apiKey: (await page.getByTestId("new-api-key").textContent())!,
      secret: (await page.getByTestId("new-secret").textContent())!,
    };
    await page.getByRole("button", { name: "I have saved the secret" }).click();
    await page.locator(`tr[data-api-key="${key.apiKey}"]`).getByText("Active until", { exact: false }).waitFor();
    await page.getByRole("cell", { name: "API key rolled" }).waitFor();
    for (const credentials of [key, rolled]) {
      const upsert = await runWebinarCli(["upsert", "--external-user-id", "console-e2e-roll"], {
        baseUrl: server.url,
        ...credentials,
      });
      expect(upsert.code, upsert.stderr).toBe(0);
    }
  });

  it("revokes the key after a confirmation, and the CLI is refused with 401", async () => {
    await page.getByRole("link", { name: "API keys" }).click();
    await page.getByRole("button", { name: `Revoke ${key.apiKey}` }).click();
    const dialog = page.getByRole("dialog", { name: `Revoke ${key.apiKey}?` });
    await dialog.waitFor();
    await checkThisPage("the revoke dialog", { screenshot: false });
    await dialog.getByRole("button", { name: "Revoke" }).click();
    const row = page.locator(`tr[data-api-key="${key.apiKey}"]`);
    await row.getByText("Revoked").waitFor();
    await page.getByRole("cell", { name: "API key revoked" }).waitFor();
    // The accepted upsert shows as the key's last use, to the minute.
    expect(await row.locator("td").nth(3).textContent()).not.toBe("Never");
    await checkThisPage("api-keys");

    const after = await runWebinarCli(["upsert", "--external-user-id", "console-e2e-3"], {
      baseUrl: server.url,
      ...key,
    });
    expect(after.code).toBe(1);
    expect(after.json.error).toMatchObject({ status: 401, code: "OPEN_API_UNAUTHORIZED" });
  });

  it("signs out everywhere: another browser's session ends too", async () => {
    const other = await browser.newContext({ locale: "en-US" });
    const otherPage = await other.newPage();
    await otherPage.goto(`${server.url}/console/sign-in`);
    await otherPage.getByLabel("Email").fill(EMAIL);
    await otherPage.getByLabel("Password").fill(PASSWORD);
    await otherPage.getByRole("button", { name: "Sign in" }).click();
    await otherPage.getByRole("heading", { level: 1, name: "Webinars" }).waitFor();

    await page.getByRole("button", { name: "Sign out everywhere" }).click();
    await page.getByRole("heading", { level: 1, name: "Sign in" }).waitFor();
    await otherPage.reload();
    await otherPage.getByRole("heading", { level: 1, name: "Sign in" }).waitFor();
    await other.close();

    await page.getByLabel("Email").fill(EMAIL);
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("heading", { level: 1, name: "Webinars" }).waitFor();
    await page.getByRole("link", { name: "API keys" }).click();
  });

  it("answers an address no page has with a page that leads back", async () => {
    await page.goto(`${server.url}/console/no/such/page`);
    await page.getByRole("heading", { level: 1, name: "Page not found" }).waitFor();
    await checkThisPage("not-found", { screenshot: false });
    await page.getByRole("link", { name: "Go to the webinars" }).click();
    await page.getByRole("heading", { level: 1, name: "Webinars" }).waitFor();
    await page.getByRole("link", { name: "API keys" }).click();
  });

  it("switches to Simplified Chinese", async () => {
    await page.getByLabel("Language").selectOption("zh-CN");
    await page.getByRole("heading", { level: 1, name: "API 密钥" }).waitFor();
    expect(await page.evaluate(() => document.documentElement.lang)).toBe("zh-CN");
    await checkThisPage("api-keys-zh-CN");
    await page.getByLabel("语言").selectOption("en");
    await page.getByRole("heading", { level: 1, name: "API keys" }).waitFor();

    // The browser's language chooses for a person who has chosen nothing.
    const chinese = await browser.newContext({ locale: "zh-CN" });
    const chinesePage = await chinese.newPage();
    await chinesePage.goto(`${server.url}/console/sign-in`);
    await chinesePage.getByRole("heading", { level: 1, name: "登录" }).waitFor();
    await chinesePage.getByLabel("邮箱").waitFor();
    await chinese.close();
  });
});
