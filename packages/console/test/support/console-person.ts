/**
 * What a person does in the console's public pages, in Chromium: accept an invite with a new password, sign in
 * (with a second-step code when asked for one).
 */
import type { Page } from "playwright-core";

/** Opens the invite link, chooses `password` and waits for the first signed-in page. */
export async function acceptInvite(page: Page, inviteUrl: string, password: string): Promise<void> {
  await page.goto(inviteUrl);
  await page.getByLabel("New password").fill(password);
  await page.getByLabel("Repeat the password").fill(password);
  await page.getByRole("button", { name: "Set password and sign in" }).click();
  await page.getByRole("navigation", { name: "Console" }).waitFor();
}

/** Fills the sign-in form on the sign-in page and sends it (the caller waits for the outcome). */
export async function submitSignIn(page: Page, email: string, password: string): Promise<void> {
  await page.getByRole("heading", { level: 1, name: "Sign in" }).waitFor();
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
}

/** Signs out with the header's button and waits for the sign-in page. */
export async function signOut(page: Page): Promise<void> {
  await page.getByRole("button", { name: "Sign out", exact: true }).click();
  await page.getByRole("heading", { level: 1, name: "Sign in" }).waitFor();
}
