/**
 * The merchant's team in real Chromium against the built reference server (PGlite): an OWNER invites a person with
 * a role (the link shown once), cannot demote or remove the last OWNER (the server's refusal is shown), changes a
 * role and removes a teammate, whose open page then goes to sign-in without a reload; each person's sessions, one
 * ended from the list; a suspended merchant's console says so, at sign-in too, and opens again once reactivated.
 * The People and Sessions pages pass axe-core and read at 390 and 1280 pixels, and are saved for docs/console.md.
 */
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkPage, launchChromium, pageProblems } from "./support/browser";
import { adminData } from "@org/webinar-test-support/admin-client";
import { type ConsoleServer, consoleMerchant, startConsoleServer } from "./support/console-server";
import { acceptInvite, signOut, submitSignIn } from "./support/console-person";

const OWNER = "owner@example.com";
const TEAMMATE = "li@example.com";
const PASSWORD = "correct horse battery";
const TEAMMATE_PASSWORD = "violet kettle orbit lamp";
/** getMe is asked again every 15 s on an open page (src/api/session.ts); a generous bound on a loaded machine. */
const SIGNED_OUT_WITHIN_MS = 60_000;

let server: ConsoleServer;
let merchantId: string;
let browser: Browser;
let ownerContext: BrowserContext;
let page: Page;
let problems: string[];

beforeAll(async () => {
  server = await startConsoleServer("pglite");
  const merchant = await consoleMerchant(server, "Team merchant");
  merchantId = merchant.merchantId;
  browser = await launchChromium();
  ownerContext = await browser.newContext({ locale: "en-US", viewport: { width: 1280, height: 900 } });
  await ownerContext.grantPermissions(["clipboard-read", "clipboard-write"], { origin: server.url });
  page = await ownerContext.newPage();
  problems = pageProblems(page);
  await acceptInvite(page, await merchant.invite(OWNER), PASSWORD);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const checkThisPage = (name: string, options?: { screenshot?: boolean }) => checkPage(page, problems, name, options);
const row = (email: string) => page.locator(`tr[data-email="${email}"]`);

/** The invite link as the test's browser reaches the server (the server names its public origin). */
function onTestServer(inviteUrl: string): string {
  const { pathname, hash } = new URL(inviteUrl);
  return `${server.url}${pathname}${hash}`;
}

describe("the merchant's team", () => {
  let teammateInvite: string;

  it("lists the OWNER, invites a person as Analyst and shows the invite link once", async () => {
    await page.getByRole("link", { name: "People" }).click();
    await page.getByRole("heading", { level: 1, name: "People" }).waitFor();
    await row(OWNER).getByText("(you)").waitFor();
    await expect(row(OWNER).getByRole("cell").nth(1).textContent()).resolves.toBe("Owner");
    await page.getByLabel("Email").fill(TEAMMATE);
    await page.getByLabel("Role").selectOption("ANALYST");
    await page.getByRole("button", { name: "Invite", exact: true }).click();
    await page.getByRole("heading", { name: `Invite link for ${TEAMMATE}` }).waitFor();
    teammateInvite = (await page.getByTestId("invite-url").textContent())!;
    expect(teammateInvite).toMatch(/\/console\/invite#token=.+/);
    await page.getByRole("button", { name: "Copy invite link" }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(teammateInvite);
    await row(TEAMMATE)
      .getByText(/Invited, link valid until/)
      .waitFor();
    await checkThisPage("people-invited");
    await page.getByRole("button", { name: "Done" }).click();
    expect(await page.getByTestId("invite-url").count()).toBe(0);
    // Inviting the same email again is refused, in words.
    await page.getByLabel("Email").fill(TEAMMATE);
    await page.getByRole("button", { name: "Invite", exact: true }).click();
    await page.getByRole("alert").getByText("This email already belongs to a person of the console.").waitFor();
  });

  it("shows the server's refusal to demote or remove the last OWNER", async () => {
    await page.getByRole("button", { name: `Make Analyst: ${OWNER}` }).click();
    await page.getByRole("alert").getByText("The merchant needs at least one Owner.", { exact: false }).waitFor();
    await page.getByRole("button", { name: `Remove ${OWNER}` }).click();
    const dialog = page.getByRole("dialog", { name: `Remove ${OWNER}?` });
    await dialog.waitFor();
    await dialog.getByRole("button", { name: "Remove" }).click();
    await dialog.getByRole("alert").getByText("The merchant needs at least one Owner.", { exact: false }).waitFor();
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await expect(row(OWNER).getByRole("cell").nth(1).textContent()).resolves.toBe("Owner");
  });

  it("changes a teammate's role, removes them, and their open page goes to sign-in without a reload", async () => {
    const teammateContext = await browser.newContext({ locale: "en-US", viewport: { width: 1280, height: 900 } });
    const teammatePage = await teammateContext.newPage();
    await acceptInvite(teammatePage, onTestServer(teammateInvite), TEAMMATE_PASSWORD);
    await teammatePage.getByRole("link", { name: "People" }).click();
    await teammatePage.getByRole("heading", { level: 1, name: "People" }).waitFor();
    // An Analyst reads the team without its controls.
    await teammatePage.getByText("You have read-only access", { exact: false }).waitFor();
    expect(await teammatePage.getByRole("button", { name: /^Remove / }).count()).toBe(0);

    await page.reload();
    await row(TEAMMATE).getByText("Active").waitFor();
    await page.getByRole("button", { name: `Make Owner: ${TEAMMATE}` }).click();
    await page.getByRole("button", { name: `Make Analyst: ${TEAMMATE}` }).waitFor();
    await expect(row(TEAMMATE).getByRole("cell").nth(1).textContent()).resolves.toBe("Owner");
    await checkThisPage("people", { screenshot: false });

    await teammatePage.getByRole("link", { name: "API keys" }).click();
    await teammatePage.getByRole("heading", { level: 1, name: "API keys" }).waitFor();
    const before = teammatePage.url();
    await page.getByRole("button", { name: `Remove ${TEAMMATE}` }).click();
    const dialog = page.getByRole("dialog", { name: `Remove ${TEAMMATE}?` });
    await dialog.getByRole("button", { name: "Remove" }).click();
    await row(TEAMMATE).waitFor({ state: "detached" });

    // No reload, no click: the page asks getMe again on its own and finds the session ended.
    const removedAt = Date.now();
    await teammatePage.getByRole("heading", { level: 1, name: "Sign in" }).waitFor({ timeout: SIGNED_OUT_WITHIN_MS });
    console.log(`the removed teammate's page showed sign-in after ${Date.now() - removedAt} ms`);
    expect(new URL(teammatePage.url()).searchParams.get("next")).toBe(new URL(before).pathname);
    // And the removed person cannot sign in again.
    await submitSignIn(teammatePage, TEAMMATE, TEAMMATE_PASSWORD);
    await teammatePage.getByRole("alert").getByText("The email or the password is wrong.").waitFor();
    await teammateContext.close();
  });
});

describe("sessions", () => {
  it("lists the person's sessions with the current one marked, and ends another", async () => {
    // A second session of the OWNER, from another device.
    const other = await fetch(`${server.url}/console/api/session`, {
      method: "POST",
      headers: {
        origin: server.url,
        "content-type": "application/json",
        "user-agent":
          "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Version/17.0 Mobile/15E148 Safari/604.1",
      },
      body: JSON.stringify({ email: OWNER, password: PASSWORD }),
    });
    expect(other.status).toBe(200);
    const otherCookie = other.headers.get("set-cookie")!.split(";")[0]!;
    const otherMe = () => fetch(`${server.url}/console/api/me`, { headers: { cookie: otherCookie } });
    expect((await otherMe()).status).toBe(200);

    await page.getByRole("link", { name: "Sessions" }).click();
    await page.getByRole("heading", { level: 1, name: "Sessions" }).waitFor();
    const current = page.locator('tr[data-current="true"]');
    const others = page.locator('tr[data-current="false"]');
    await current.getByText("This session").waitFor();
    await others.getByText(/iPhone/).waitFor();
    expect(await current.count()).toBe(1);
    await expect(current.getByRole("cell").nth(1).textContent()).resolves.toMatch(
      /^(127\.0\.0\.1|::1|::ffff:127\.0\.0\.1)$/,
    );
    await checkThisPage("sessions");

    await others.getByRole("button", { name: /^End the session on .*iPhone/ }).click();
    await others.waitFor({ state: "detached" });
    expect((await otherMe()).status).toBe(401);
    await current.waitFor();
  });
});

describe("a suspended merchant", () => {
  const setMerchantStatus = (status: "ACTIVE" | "SUSPENDED") =>
    adminData(
      server.admin.POST("/admin/v1/merchants/{merchantId}/status", {
        params: { path: { merchantId } },
        body: { status },
      }),
    );

  it("shows the suspension on the open page and at sign-in, and opens again once reactivated", async () => {
    await setMerchantStatus("SUSPENDED");
    await page.getByRole("link", { name: "Webinars" }).click();
    await page
      .getByRole("heading", { level: 1, name: "Merchant suspended" })
      .waitFor({ timeout: SIGNED_OUT_WITHIN_MS });
    await page.getByRole("alert").getByText("This merchant is suspended. Ask your operator.").waitFor();
    await checkThisPage("suspended", { screenshot: false });
    await page.getByRole("button", { name: "Sign out" }).click();
    await submitSignIn(page, OWNER, PASSWORD);
    await page.getByRole("alert").getByText("This merchant is suspended. Ask your operator.").waitFor();
    await checkThisPage("sign-in-suspended", { screenshot: false });

    await setMerchantStatus("ACTIVE");
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("heading", { level: 1, name: "Webinars" }).waitFor();
    await signOut(page);
  });
});
