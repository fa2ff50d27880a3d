/**
 * The root README's "Your first viewer, end to end", run as a new user runs it: the built server started the way
 * `pnpm start` starts it (a fresh data directory, so the demo is created), then every command of the README's two
 * shell blocks through bash, as written, in a folder whose `.data` is that data directory and whose `npx webinar`
 * is this repository's CLI. The browser step is real Chromium: open the printed loginUrl, press Play, watch
 * 20 s, pause. The README's last command must then list `demo-1` with those seconds.
 *
 * Only two things are filled in, as the reader fills them in: the `<uid>` the upsert printed, and the data
 * directory's place (the README's `./.data` is this test's folder).
 */
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, symlink } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startServerProcess, type ServerProcess } from "./support/server-process";
import { foreignRequests, launchChromium } from "./support/watch-browser";

const run = promisify(execFile);
const repoRoot = fileURLToPath(new URL("../../../", import.meta.url));
const HEARTBEAT_INTERVAL_SECONDS = 15;

/** The shell blocks of the README's walkthrough section, each as its lines. */
async function walkthroughBlocks(): Promise<string[][]> {
  const readme = await readFile(path.join(repoRoot, "README.md"), "utf8");
  const start = readme.indexOf("## Your first viewer, end to end");
  expect(start, "the README has its walkthrough section").toBeGreaterThan(-1);
  const section = readme.slice(start, readme.indexOf("\n## ", start + 1));
  return [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((match) =>
    match[1]!.split("\n").filter((line) => line.trim() !== ""),
  );
}

let folder: string;
let server: ServerProcess;
let browser: Browser;

beforeAll(async () => {
  folder = await mkdtemp(path.join(os.tmpdir(), "webinar-readme-"));
  // `npx webinar` finds the CLI in the folder's node_modules, as it does at the repository root.
  await symlink(path.join(repoRoot, "node_modules"), path.join(folder, "node_modules"), "dir");
  // As `pnpm start` runs it: no admin token, no secret key, the demo created on the first start.
  server = await startServerProcess({
    WEBINAR_DATA_DIR: path.join(folder, ".data"),
    WEBINAR_SEED_DEMO: "true",
    WEBINAR_ADMIN_TOKEN: "",
    WEBINAR_SECRET_KEY: "",
    WEBINAR_LOG_LEVEL: "warn",
  });
  browser = await launchChromium();
}, 90_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  if (folder !== undefined) await rm(folder, { recursive: true, force: true });
});

it("the README walks a new user from upsert to their own watch time in the detail operation", async () => {
  const [first, second] = await walkthroughBlocks();
  expect(first).toBeDefined();
  expect(second).toBeDefined();
  // The block's first lines set the shell up (credentials, the admin helper); every later command runs after them.
  const setupLines = first!.filter((line) => !line.startsWith("npx ") && !line.startsWith("admin "));
  const commands = first!.slice(setupLines.length);
  const shell = async (command: string) => {
    const script = [...setupLines, command].join("\n");
    const { stdout } = await run("bash", ["-euo", "pipefail", "-c", script], {
      cwd: folder,
      env: { ...process.env, NO_COLOR: "1" },
    });
    return stdout;
  };

  let uid: string | undefined;
  let loginUrl: string | undefined;
  for (const command of commands) {
    const output = await shell(uid === undefined ? command : command.replace("<uid>", uid));
    uid ??= /^uid\s+(\d+)$/m.exec(output)?.[1];
    loginUrl ??= /(http:\/\/\S+#login_ticket=\S+)/.exec(output)?.[1];
  }
  expect(uid, "the upsert printed the viewer's uid").toBeDefined();
  expect(loginUrl, "the ticket command printed a loginUrl").toBeDefined();

  const page = await browser.newPage();
  const foreign = foreignRequests(page, new URL(server.url).origin);
  await page.goto(loginUrl!);
  const play = page.getByRole("button", { name: "Play" });
  await play.waitFor();
  await page.waitForFunction(() => !(document.getElementById("play") as HTMLButtonElement).disabled, undefined, {
    timeout: 15_000,
  });
  await play.click();
  await page.waitForFunction(() => {
    const video = document.querySelector("video");
    return video !== null && !video.paused && video.currentTime > 0;
  });
  const playingSince = Date.now();
  await page.waitForTimeout(20_000);
  await page.getByRole("button", { name: "Pause" }).click();
  const watchedSeconds = (Date.now() - playingSince) / 1000;
  await page.getByRole("button", { name: "Play" }).waitFor();
  await page.close();

  const outputs: string[] = [];
  for (const command of second!) outputs.push(await shell(command));
  const [, , overview, viewers] = outputs;
  console.log(`README walkthrough: watched ${watchedSeconds.toFixed(1)} s\n${overview}\n${viewers}`);
  expect(overview).toMatch(/^registered\s+1\s+1\s+\d+$/m);
  const lines = viewers!.split("\n");
  const header = lines.find((line) => line.startsWith("uid "));
  const row = lines.find((line) => line.includes(" demo-1 "));
  expect(header, "the detail prints its table").toBeDefined();
  expect(row, "the detail lists demo-1").toBeDefined();
  // Columns are padded to one width: read the seconds under their header.
  const column = header!.indexOf("totalWatchSeconds");
  const credited = Number.parseInt(row!.slice(column), 10);
  expect(Math.abs(credited - watchedSeconds)).toBeLessThanOrEqual(HEARTBEAT_INTERVAL_SECONDS);
  expect(foreign).toEqual([]);
}, 180_000);
