/**
 * The end of the README's first-hour walkthrough: the demo invite a first start prints opens the console, and the
 * person reaches the demo webinar's watch data from the webinars page. And the sign-in page after repeated failures:
 * the server's 429 in words, with the wait.
 */
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { launchChromium, seriousAxeViolations } from "./support/browser";
import { type ConsoleServer, startConsoleServer } from "./support/console-server";

let server: ConsoleServer;
let browser: Browser;

beforeAll(async () => {
  server = await startConsoleServer("pglite", { demo: true });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

it("the demo's printed console invite signs the person in, and the demo webinar's watch data opens", async () => {
  const output = server.output();
  const invite = /^\s*console\s+(http:\/\/\S+\/console\/invite#token=\S+)$/m.exec(output)?.[1];
  const ticketCode = /demo webinar (\S+):/.exec(output)?.[1];
  expect(invite, output).toBeDefined();
  expect(ticketCode, output).toBeDefined();
  const page = await (await browser.newContext({ locale: "en-US" })).newPage();
  await page.goto(invite!);
  await page.getByLabel("New password").fill("correct horse battery");
  await page.getByLabel("Repeat the password").fill("correct horse battery");
  await page.getByRole("button", { name: "Set password and sign in" }).click();
  const card = page.locator(`article[data-ticket-code="${ticketCode}"]`);
  await card.getByRole("link", { name: "Watch data of", exact: false }).click();
  await page.getByRole("heading", { level: 1, name: "Watch data:", exact: false }).waitFor();
  expect(page.url()).toBe(`${server.url}/console/webinars/${ticketCode}`);
  await page.locator('[data-scope="ALL"] [data-field="dataState"]').waitFor();
  expect(await seriousAxeViolations(page)).toEqual([]);
});

it("says how long to wait after repeated failed sign-ins", async () => {
  const page = await (await browser.newContext({ locale: "en-US" })).newPage();
  await page.goto(`${server.url}/console/sign-in`);
  await page.getByLabel("Email").fill("nobody@example.com");
  await page.getByLabel("Password").fill("not the password");
  const alert = page.getByRole("alert");
  for (let attempt = 0; attempt < 10; attempt += 1) {
    await page.getByRole("button", { name: "Sign in" }).click();
    await alert.waitFor();
    if ((await alert.textContent())?.startsWith("Too many failed sign-ins.")) break;
    await expect.poll(() => page.getByRole("button", { name: "Sign in" }).isEnabled()).toBe(true);
  }
  expect(await alert.textContent()).toMatch(/^Too many failed sign-ins\. Try again in \d+ minutes?\./);
});
