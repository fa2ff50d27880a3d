/**
 * Two-step sign-in in real Chromium against the built reference server (a PostgreSQL database of its own): a person
 * turns it on with the QR code and the secret the page shows and a code the test computes as an authenticator app
 * would (otpauth), keeps the recovery codes shown once, signs in with a code and with a recovery code, and makes new
 * recovery codes after entering their password again when the last one is older than the server allows (the
 * session's password time is moved back in the database); an OWNER requires two-step sign-in of everyone, and a
 * teammate without it is led through it at their next sign-in. The password the invite set is stored at the built
 * server's default scrypt cost. Each new page passes axe-core and reads at 390 and
 * 1280 pixels; screenshots go to docs/console.md.
 */
import { readFile } from "node:fs/promises";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authenticator } from "./support/authenticator";
import { checkPage, launchChromium, pageProblems } from "./support/browser";
import { type ConsoleRole, type ConsoleServer, consoleMerchant, startConsoleServer } from "./support/console-server";
import { acceptInvite, signOut, submitSignIn } from "./support/console-person";

const OWNER = "ana@example.com";
const TEAMMATE = "wei@example.com";
const PASSWORD = "correct horse battery";
const TEAMMATE_PASSWORD = "amber willow cinema tide";

let server: ConsoleServer;
let invite: (email: string, role?: ConsoleRole) => Promise<string>;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let problems: string[];

beforeAll(async () => {
  server = await startConsoleServer("postgres");
  ({ invite } = await consoleMerchant(server, "Two-step merchant"));
  browser = await launchChromium();
  context = await browser.newContext({
    locale: "en-US",
    acceptDownloads: true,
    viewport: { width: 1280, height: 900 },
  });
  page = await context.newPage();
  problems = pageProblems(page);
  await acceptInvite(page, await invite(OWNER), PASSWORD);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const checkThisPage = (name: string, options?: { screenshot?: boolean }) => checkPage(page, problems, name, options);

/** Turns two-step sign-in on from the page that offers it; answers the authenticator and the recovery codes. */
async function enroll(on: Page) {
  await on.getByRole("button", { name: "Turn on two-step sign-in" }).click();
  const qr = on.getByRole("img", { name: "QR code of your two-step sign-in secret, for your authenticator app" });
  await qr.waitFor();
  expect(await qr.getAttribute("src")).toMatch(/^data:image\/svg\+xml;base64,/);
  const secret = (await on.getByTestId("totp-secret").textContent())!;
  expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
  const app = authenticator(secret);
  await on.getByLabel("Code the app shows").fill(app.nextCode());
  await on.getByRole("button", { name: "Turn on", exact: true }).click();
  await on.getByRole("heading", { name: "Your recovery codes" }).waitFor();
  const codes = await on.getByTestId("recovery-codes").locator("code").allTextContents();
  return { app, codes };
}

describe("the password the invite set", () => {
  it("is stored as scrypt at OWASP's cost (N = 2^17, r = 8, p = 1), the built server's default", async () => {
    const [row] = await server.database!.query("SELECT password_hash FROM console_users WHERE email = $1", [OWNER]);
    expect(String(row?.password_hash).split("$").slice(0, 4)).toEqual(["scrypt", "131072", "8", "1"]);
  });
});

describe("two-step sign-in", () => {
  let app: ReturnType<typeof authenticator>;
  let recoveryCodes: string[];

  it("turns on with the QR code or the secret and a code of the app, and shows ten recovery codes once", async () => {
    await page.getByRole("link", { name: "Two-step sign-in" }).click();
    await page.getByRole("heading", { level: 1, name: "Two-step sign-in" }).waitFor();
    await page.getByRole("heading", { name: "Two-step sign-in is off" }).waitFor();
    await checkThisPage("two-step-off", { screenshot: false });
    await page.getByRole("button", { name: "Turn on two-step sign-in" }).click();
    await page.getByTestId("totp-secret").waitFor();
    // A wrong code is refused and the enrollment stays open.
    await page.getByLabel("Code the app shows").fill("000000");
    await page.getByRole("button", { name: "Turn on", exact: true }).click();
    await page.getByRole("alert").getByText("This is not the current code of your authenticator app.").waitFor();
    await checkThisPage("two-step-enroll");
    // Starting again (a reload forgets the page's secret) makes a new secret; this one is confirmed.
    await page.reload();
    ({ app, codes: recoveryCodes } = await enroll(page));
    expect(recoveryCodes).toHaveLength(10);
    for (const code of recoveryCodes) expect(code).toMatch(/^[a-z2-7]{4}(-[a-z2-7]{4}){3}$/);
    const download = page.waitForEvent("download");
    await page.getByRole("link", { name: "Download as a text file" }).click();
    expect(await readFile((await (await download).path())!, "utf8")).toBe(`${recoveryCodes.join("\n")}\n`);
    await checkThisPage("two-step-recovery-codes");
    await page.getByRole("button", { name: "I have saved the codes" }).click();
    expect(await page.getByTestId("recovery-codes").count()).toBe(0);
    await page.getByText("You have 10 recovery codes left.").waitFor();
  });

  it("signs in with the app's code after the password", async () => {
    await signOut(page);
    await submitSignIn(page, OWNER, PASSWORD);
    const code = page.getByLabel("Code", { exact: true });
    await code.waitFor();
    // The code field has focus and says what it takes.
    expect(await code.evaluate((element) => element === document.activeElement)).toBe(true);
    await checkThisPage("sign-in-code");
    await code.fill("123456");
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("alert").getByText("This code is wrong or was already used.", { exact: false }).waitFor();
    await code.fill(app.nextCode());
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("heading", { level: 1, name: "Webinars" }).waitFor();
  });

  it("signs in with a recovery code, which is then used up", async () => {
    await signOut(page);
    await submitSignIn(page, OWNER, PASSWORD);
    await page.getByLabel("Code", { exact: true }).fill(recoveryCodes[0]!.toUpperCase());
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("heading", { level: 1, name: "Webinars" }).waitFor();
    await page.getByRole("link", { name: "Two-step sign-in" }).click();
    await page.getByText("You have 9 recovery codes left.").waitFor();
  });

  it("asks for the password again when it is older than the server allows, then makes the new recovery codes", async () => {
    // The session's password was entered an hour ago, as if the person had been working since.
    const aged = await server.database!.query(
      "update console_sessions set password_entered_at = now() - interval '1 hour' where user_id = (select id from console_users where email = $1) returning session_id",
      [OWNER],
    );
    expect(aged.length).toBeGreaterThan(0);
    await page.getByRole("button", { name: "Make new recovery codes" }).click();
    const dialog = page.getByRole("dialog", { name: "Confirm your password" });
    await dialog.waitFor();
    await dialog.getByLabel("Your password").fill("not my password");
    await dialog.getByRole("button", { name: "Confirm and go on" }).click();
    await dialog.getByRole("alert").getByText("The password is wrong.").waitFor();
    await checkThisPage("password-again");
    await dialog.getByLabel("Your password").fill(PASSWORD);
    await dialog.getByRole("button", { name: "Confirm and go on" }).click();
    // The change waiting behind the dialog was sent again and went through.
    await page.getByRole("heading", { name: "Your recovery codes" }).waitFor();
    await dialog.waitFor({ state: "hidden" });
    const fresh = await page.getByTestId("recovery-codes").locator("code").allTextContents();
    expect(fresh).toHaveLength(10);
    expect(fresh.filter((code) => recoveryCodes.includes(code))).toEqual([]);
    await page.getByRole("button", { name: "I have saved the codes" }).click();
    await page.getByText("You have 10 recovery codes left.").waitFor();
  });

  it("an OWNER requires it of everyone, and a teammate without it turns it on at their next sign-in", async () => {
    const teammateContext = await browser.newContext({ locale: "en-US", viewport: { width: 1280, height: 900 } });
    const teammatePage = await teammateContext.newPage();
    const teammateProblems = pageProblems(teammatePage);
    await acceptInvite(teammatePage, await invite(TEAMMATE, "ANALYST"), TEAMMATE_PASSWORD);
    await signOut(teammatePage);

    await page.getByRole("link", { name: "People" }).click();
    const requirement = { name: "Require two-step sign-in for everyone" };
    // The switch shows the merchant's requirement as the server answers it, so it turns on once saved.
    await page.getByRole("switch", { ...requirement, checked: false }).click();
    await page.getByRole("switch", { ...requirement, checked: true }).waitFor();
    await page.reload();
    await page.getByRole("switch", { ...requirement, checked: true }).waitFor();

    await submitSignIn(teammatePage, TEAMMATE, TEAMMATE_PASSWORD);
    await teammatePage.getByRole("heading", { level: 1, name: "Two-step sign-in" }).waitFor();
    await teammatePage
      .getByText("This merchant requires two-step sign-in. Turn it on to continue", { exact: false })
      .waitFor();
    // Any other page leads back here until it is on.
    await teammatePage.goto(`${server.url}/console/api-keys`);
    await teammatePage.getByRole("heading", { level: 1, name: "Two-step sign-in" }).waitFor();
    await checkPage(teammatePage, teammateProblems, "two-step-required", { screenshot: false });
    await enroll(teammatePage);
    await teammatePage.getByRole("button", { name: "I have saved the codes" }).click();
    await teammatePage.getByRole("link", { name: "API keys" }).click();
    await teammatePage.getByRole("heading", { level: 1, name: "API keys" }).waitFor();
    await teammateContext.close();

    // The People page, opened again, shows the teammate's two-step sign-in on.
    await page.reload();
    await page.locator(`tr[data-email="${TEAMMATE}"]`).getByRole("cell", { name: "On", exact: true }).waitFor();
  });
});
