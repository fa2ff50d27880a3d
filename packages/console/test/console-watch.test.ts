/**
 * A webinar's watch data in the console, in real Chromium against the built reference server on a PostgreSQL
 * database of its own: playback sessions with known numbers are imported through the admin API, then the person
 * opens the deep link `/console/webinars/{ticketCode}` on a fresh load, reads the overview (equal to the Open API's
 * getWatchOverview), the charts' data (read back from the charts themselves), pages and filters the viewers table
 * (equal to the Open API's queryViewerWatch) and exports the CSV. An ANALYST sees the webinars without controls.
 */
import { readFile } from "node:fs/promises";
import { createWebinarClient, type WebinarClient } from "@org/webinar-client";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkPage, launchChromium, pageProblems } from "./support/browser";
import type { components } from "@org/webinar-admin-contract";
import { adminData } from "@org/webinar-test-support/admin-client";
import { type ConsoleRole, type ConsoleServer, consoleMerchant, startConsoleServer } from "./support/console-server";

type PlaybackSession = components["schemas"]["ImportPlaybackSessionRequest"];

const PASSWORD = "correct horse battery";
const MINUTE = 60_000;
/** The live's first minute, two hours ago, on a minute boundary. */
const T0 = Math.floor((Date.now() - 120 * MINUTE) / MINUTE) * MINUTE;
const at = (offsetSeconds: number) => new Date(T0 + offsetSeconds * 1000).toISOString();

/**
 * Live sessions: starting and ending inside minutes, so each counts in the minutes it plays in whatever the
 * server's boundary rule. Minute 0: viewers 1 and the anonymous one; minutes 1-2: viewers 1 and 2; minute 3: none;
 * minute 4: viewer 3.
 */
const LIVE_SESSIONS = [
  { viewer: 0, start: 30, seconds: 140, deviceType: "DESKTOP", protocol: "HLS" },
  { viewer: 1, start: 90, seconds: 45, deviceType: "MOBILE", protocol: "WEBRTC" },
  { viewer: "anonymous", start: 10, seconds: 20, deviceType: "MOBILE", protocol: "WEBRTC" },
  { viewer: 2, start: 250, seconds: 30, deviceType: "TABLET" },
] as const;
const LIVE_CONCURRENCY = [2, 2, 2, 0, 1];
/** Subjects by live watch time in the buckets [0,60) [60,300) [300,900) [900,1800) [1800,3600) [3600,7200) [7200,∞). */
const LIVE_DISTRIBUTION = [3, 1, 0, 0, 0, 0, 0];
/** Twelve registered viewers watch the replay for distinct times, so the table has two pages of ten. */
const REPLAY_SECONDS = [1500, 1400, 1300, 1200, 1100, 1000, 900, 800, 700, 600, 500, 400];

let server: ConsoleServer;
let browser: Browser;
let page: Page;
let problems: string[];
let client: WebinarClient;
let ticketCode: string;
let uids: number[];
let invite: (email: string, role?: ConsoleRole) => Promise<string>;

async function seed(): Promise<void> {
  const merchant = await consoleMerchant(server, "Console watch merchant");
  invite = merchant.invite;
  client = createWebinarClient({ baseUrl: server.url, apiKey: merchant.apiKey, secret: merchant.secret });
  ({ ticketCode } = await adminData(
    server.admin.POST("/admin/v1/merchants/{merchantId}/webinars", {
      params: { path: { merchantId: merchant.merchantId } },
      body: { title: "Spring launch" },
    }),
  ));
  const webinar = { params: { path: { ticketCode } } };
  uids = [];
  for (const [index] of REPLAY_SECONDS.entries()) {
    const { viewer } = await client.upsertViewer({
      externalUserId: `watch-${index + 1}`,
      phone: `1380000${String(1000 + index)}`,
      displayName: `Viewer ${index + 1}`,
    });
    uids.push(viewer.uid);
  }
  const importSession = (body: PlaybackSession) =>
    adminData(server.admin.POST("/admin/v1/webinars/{ticketCode}/playback-sessions", { ...webinar, body }));
  await adminData(server.admin.POST("/admin/v1/webinars/{ticketCode}/live", { ...webinar, body: { action: "START" } }));
  for (const session of LIVE_SESSIONS)
    await importSession({
      subject: session.viewer === "anonymous" ? { anonymousId: "anon-console-1" } : { uid: uids[session.viewer]! },
      mode: "LIVE",
      watchSeconds: session.seconds,
      deviceType: session.deviceType,
      ...("protocol" in session ? { protocol: session.protocol } : {}),
      startedAt: at(session.start),
    });
  await adminData(server.admin.POST("/admin/v1/webinars/{ticketCode}/live", { ...webinar, body: { action: "END" } }));
  await adminData(server.admin.POST("/admin/v1/webinars/{ticketCode}/finalize", { ...webinar, body: {} }));
  for (const [index, seconds] of REPLAY_SECONDS.entries())
    await importSession({
      subject: { uid: uids[index]! },
      mode: "REPLAY",
      watchSeconds: seconds,
      deviceType: "DESKTOP",
      protocol: "HLS",
      startedAt: at(3600 + index * 30),
    });
}

/** A new browser context of the person invited as `role`, signed in through the invite. */
async function signedInPage(role: "OWNER" | "ANALYST"): Promise<Page> {
  const context = await browser.newContext({
    locale: "en-US",
    acceptDownloads: true,
    viewport: { width: 1280, height: 900 },
  });
  const signedIn = await context.newPage();
  await signedIn.goto(await invite(`${role.toLowerCase()}@example.com`, role));
  await signedIn.getByLabel("New password").fill(PASSWORD);
  await signedIn.getByLabel("Repeat the password").fill(PASSWORD);
  await signedIn.getByRole("button", { name: "Set password and sign in" }).click();
  await signedIn.getByRole("heading", { level: 1, name: "Webinars" }).waitFor();
  return signedIn;
}

beforeAll(async () => {
  server = await startConsoleServer("postgres");
  await seed();
  browser = await launchChromium();
  page = await signedInPage("OWNER");
  problems = pageProblems(page);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** The checks every page gets (support/browser.ts), then its screenshot. */
const checkThisPage = (name: string) => checkPage(page, problems, name);

/** What a chart holds, as the chart itself reports it after drawing (its `data-chart`). */
async function chartData(name: string): Promise<{ categories: string[]; series: { data: number[] }[] }> {
  const chart = page.locator(`[data-chart-name="${name}"][data-chart]`);
  await chart.waitFor();
  return JSON.parse((await chart.getAttribute("data-chart"))!);
}

/** The uids of the viewers table's rows, in order. */
async function tableUids(): Promise<number[]> {
  await page.getByTestId("viewers").waitFor();
  return (await page
    .getByTestId("viewers")
    .locator("tbody tr")
    .evaluateAll((rows) => rows.map((row) => Number(row.getAttribute("data-uid"))))) as number[];
}

describe("the merchant console, watch data", () => {
  it("lists the webinar with its state and opens its watch data from a deep link on a fresh load", async () => {
    const card = page.locator(`article[data-ticket-code="${ticketCode}"]`);
    await card.getByRole("heading", { name: "Spring launch" }).waitFor();
    await card.getByText("Ended").waitFor();
    await card.getByText(`/w/${ticketCode}`).waitFor();
    await page.context().grantPermissions(["clipboard-read", "clipboard-write"], { origin: server.url });
    await card.getByRole("button", { name: "Copy link" }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(
      await card.getByRole("link", { name: `/w/${ticketCode}` }).getAttribute("href"),
    );
    await checkThisPage("webinars");

    await page.goto(`${server.url}/console/webinars/${ticketCode}`);
    await page.getByRole("heading", { level: 1, name: "Watch data: Spring launch" }).waitFor();
  });

  it("shows the overview of LIVE, REPLAY and ALL with the numbers the Open API answers", async () => {
    for (const mode of ["LIVE", "REPLAY", "ALL"] as const) {
      const expected = await client.getWatchOverview({ ticketCode, playbackMode: mode });
      const scope = page.locator(`[data-scope="${mode}"]`);
      await scope.locator('[data-field="dataState"]').waitFor();
      for (const group of ["all", "registered", "anonymous"] as const)
        for (const field of ["viewerCount", "sessionCount", "watchSeconds"] as const)
          expect(
            Number(await scope.locator(`[data-field="${group}.${field}"]`).getAttribute("data-value")),
            `${mode} ${group}.${field}`,
          ).toBe(expected[group][field]);
    }
    await page.locator('[data-scope="LIVE"]').getByText("Final", { exact: true }).waitFor();
    await page.locator('[data-scope="LIVE"]').getByText("The live figures no longer change.").waitFor();
  });

  it("draws the live sessions' concurrency per minute, watch-time distribution, devices and protocols", async () => {
    await page.getByRole("radio", { name: "Live", exact: true }).check();
    await expect.poll(async () => (await chartData("concurrency")).series[0]?.data).toEqual(LIVE_CONCURRENCY);
    expect((await chartData("distribution")).series[0]?.data).toEqual(LIVE_DISTRIBUTION);
    const breakdown = async (name: string) => {
      const { categories, series } = await chartData(name);
      return Object.fromEntries(categories.map((category, index) => [category, series[0]?.data[index]]));
    };
    expect(await breakdown("devices")).toEqual({ DESKTOP: 1, MOBILE: 2, TABLET: 1 });
    expect(await breakdown("protocols")).toEqual({ HLS: 1, WEBRTC: 2, UNKNOWN: 1 });
  });

  it("pages and filters the viewers table as the Open API's detail query does", async () => {
    await page.getByRole("radio", { name: "Live and replay" }).check();
    await page.getByLabel("Rows per page").selectOption("10");
    await page.getByRole("button", { name: "Apply" }).click();
    const first = await client.queryViewerWatch({
      ticketCode,
      playbackMode: "ALL",
      sort: "WATCH_SECONDS_DESC",
      pageSize: 10,
    });
    await expect.poll(tableUids).toEqual(first.items.map((record) => record.uid));
    await checkThisPage("watch-data");
    await page.getByRole("button", { name: "Next page" }).click();
    const second = await client.queryViewerWatch({
      ticketCode,
      playbackMode: "ALL",
      sort: "WATCH_SECONDS_DESC",
      pageSize: 10,
      cursor: first.nextCursor!,
    });
    await expect.poll(tableUids).toEqual(second.items.map((record) => record.uid));
    expect(second.items).toHaveLength(2);
    expect(await page.getByRole("button", { name: "Next page" }).isDisabled()).toBe(true);
    await page.getByRole("button", { name: "Previous page" }).click();
    await expect.poll(tableUids).toEqual(first.items.map((record) => record.uid));

    await page.getByLabel("Watched at least (seconds)").fill("1000");
    await page.getByRole("button", { name: "Apply" }).click();
    await expect.poll(async () => (await tableUids()).length).toBe(REPLAY_SECONDS.filter((s) => s >= 1000).length);

    await page.getByLabel("Watched at least (seconds)").fill("");
    await page.getByLabel("Uids (comma separated)").fill(`${uids[3]}, ${uids[7]}`);
    await page.getByRole("button", { name: "Apply" }).click();
    await expect.poll(tableUids).toEqual([uids[3], uids[7]]);
    await page.getByLabel("Uids (comma separated)").fill("");
    await page.getByLabel("External user ids (comma separated)").fill("watch-5");
    await page.getByLabel("Sort by").selectOption("FIRST_WATCHED_ASC");
    await page.getByRole("button", { name: "Apply" }).click();
    await expect.poll(tableUids).toEqual([uids[4]]);
  });

  it("keeps the mode, the query and the page in the address: reload and back show the same page", async () => {
    const firstOf = async (playbackMode: "ALL" | "REPLAY") =>
      client.queryViewerWatch({ ticketCode, playbackMode, sort: "WATCH_SECONDS_DESC", pageSize: 10 });
    const allFirst = await firstOf("ALL");
    const allSecond = await client.queryViewerWatch({
      ticketCode,
      playbackMode: "ALL",
      sort: "WATCH_SECONDS_DESC",
      pageSize: 10,
      cursor: allFirst.nextCursor!,
    });
    const replayFirst = await firstOf("REPLAY");
    const uidsOf = (answer: { items: { uid: number }[] }) => answer.items.map((record) => record.uid);
    const pageNumber = page.getByRole("navigation", { name: "Pages of viewers" }).getByRole("status");
    /** The table shows `expected`, the pager says `number`, the mode's radio is checked: on screen and on reload. */
    const shows = async (mode: string, number: number, expected: number[]) => {
      await expect.poll(tableUids).toEqual(expected);
      expect(await pageNumber.textContent()).toBe(`Page ${number}`);
      expect(await page.getByRole("radio", { name: mode, exact: true }).isChecked()).toBe(true);
      expect(await page.getByRole("alert").count()).toBe(0);
    };

    await page.goto(`${server.url}/console/webinars/${ticketCode}`);
    await page.getByLabel("Rows per page").selectOption("10");
    await page.getByRole("button", { name: "Apply" }).click();
    await shows("Live and replay", 1, uidsOf(allFirst));
    await page.getByRole("button", { name: "Next page" }).click();
    await shows("Live and replay", 2, uidsOf(allSecond));
    expect(new URL(page.url()).searchParams.get("cursors")).toBe(JSON.stringify([allFirst.nextCursor]));

    // A new mode is a new query: its first page, never the old query's cursor (queryViewers would refuse it).
    await page.getByRole("radio", { name: "Replay", exact: true }).check();
    await shows("Replay", 1, uidsOf(replayFirst));
    expect(new URL(page.url()).searchParams.has("cursors")).toBe(false);
    await page.reload();
    await shows("Replay", 1, uidsOf(replayFirst));
    expect(await page.getByLabel("Rows per page").inputValue()).toBe("10");

    await page.goBack();
    await shows("Live and replay", 2, uidsOf(allSecond));
    await page.reload();
    await shows("Live and replay", 2, uidsOf(allSecond));
    await page.goBack();
    await shows("Live and replay", 1, uidsOf(allFirst));
    await page.goForward();
    await page.goForward();
    await shows("Replay", 1, uidsOf(replayFirst));
    await page.getByRole("radio", { name: "Live and replay" }).check();
    await shows("Live and replay", 1, uidsOf(allFirst));
  });

  it("exports every record of the mode as CSV", async () => {
    const download = page.waitForEvent("download");
    await page.getByRole("link", { name: "Export Live and replay viewers as CSV" }).click();
    const text = await readFile((await (await download).path())!, "utf8");
    expect(text.startsWith("\uFEFF")).toBe(true);
    const lines = text.slice(1).trimEnd().split(/\r\n/);
    const header = lines[0]!.split(",");
    expect(header).toEqual(expect.arrayContaining(["uid", "externalUserId", "totalWatchSeconds"]));
    const rows = lines.slice(1).map((line) => line.split(","));
    const column = (name: string) => rows.map((row) => row[header.indexOf(name)]);
    expect(column("uid").map(Number).sort()).toEqual([...uids].sort());
    const records = [];
    for await (const record of client.iterateViewerWatch({
      ticketCode,
      playbackMode: "ALL",
      sort: "WATCH_SECONDS_DESC",
    }))
      records.push(record);
    expect(column("totalWatchSeconds").map(Number)).toEqual(records.map((record) => record.totalWatchSeconds));
  });

  it("creates a webinar, runs its live from the console, and the watch data refreshes on its own while it runs", async () => {
    await page.getByRole("link", { name: "Webinars", exact: true }).click();
    await page.getByLabel("Title").fill("Evening live");
    await page.getByLabel("Ticket code (optional)").fill("console-live-1");
    await page.getByRole("button", { name: "Create webinar" }).click();
    const card = page.locator('article[data-ticket-code="console-live-1"]');
    await card.getByRole("heading", { name: "Evening live" }).waitFor();
    await card.getByLabel("Live video URL").fill("https://video.example.com/evening.webm");
    await card.getByRole("button", { name: "Save video URLs" }).click();
    await card.getByText("Saved.").waitFor();
    await card.getByRole("button", { name: "Start live" }).click();
    await card.getByText("Live now").waitFor();
    await card.getByRole("link", { name: "Watch data of Evening live" }).click();
    await page.getByText("The figures refresh every 10 seconds while the live runs.").waitFor();
    const liveSessions = page.locator('[data-scope="LIVE"] [data-field="all.sessionCount"]');
    await liveSessions.waitFor();
    expect(await liveSessions.getAttribute("data-value")).toBe("0");

    // A session recorded while the page is open shows without a reload, as the Open API answers it then.
    await adminData(
      server.admin.POST("/admin/v1/webinars/{ticketCode}/playback-sessions", {
        params: { path: { ticketCode: "console-live-1" } },
        body: {
          subject: { anonymousId: "anon-evening-1" },
          mode: "LIVE",
          watchSeconds: 75,
          deviceType: "MOBILE",
          protocol: "HLS",
        },
      }),
    );
    await expect.poll(() => liveSessions.getAttribute("data-value"), { timeout: 30_000, interval: 1000 }).toBe("1");
    const overview = await client.getWatchOverview({ ticketCode: "console-live-1", playbackMode: "LIVE" });
    expect(overview.all.sessionCount).toBe(1);
    expect(
      Number(await page.locator('[data-scope="LIVE"] [data-field="all.watchSeconds"]').getAttribute("data-value")),
    ).toBe(overview.all.watchSeconds);
    // The live's viewers are listed once its figures are final.
    await page
      .getByText("The live figures are not final yet, so the viewers of the live cannot be listed.", { exact: false })
      .waitFor();

    await page.getByRole("link", { name: "Back to the webinars" }).click();
    await card.getByRole("button", { name: "End live" }).click();
    const dialog = page.getByRole("dialog", { name: "End live" });
    await dialog.getByRole("button", { name: "End live" }).click();
    await card.getByText("Ended").waitFor();
    await card.getByRole("button", { name: "Finalize live figures" }).click();
    await card.getByText("figures final since", { exact: false }).waitFor();
    await card.getByRole("button", { name: "Hide" }).click();
    await card.getByText("Hidden").waitFor();
  });

  it("shows an ANALYST every webinar and its watch data without a control to change anything", async () => {
    const analyst = await signedInPage("ANALYST");
    const analystProblems = pageProblems(analyst);
    const card = analyst.locator(`article[data-ticket-code="${ticketCode}"]`);
    await card.getByRole("heading", { name: "Spring launch" }).waitFor();
    await analyst.getByText("You have read-only access (Analyst)", { exact: false }).waitFor();
    expect(await analyst.getByRole("button", { name: "Create webinar" }).count()).toBe(0);
    expect(await card.getByRole("button").allTextContents()).toEqual(["Copy link"]);
    await card.getByRole("link", { name: "Watch data of Spring launch" }).click();
    await analyst.locator('[data-scope="ALL"] [data-field="dataState"]').waitFor();
    await analyst.locator('[data-chart-name="concurrency"][data-chart]').waitFor();
    await analyst.getByTestId("viewers").waitFor();
    await checkPage(analyst, analystProblems, "watch data (ANALYST)", { screenshot: false });
    await analyst.getByRole("link", { name: "API keys" }).click();
    await analyst.getByRole("heading", { level: 1, name: "API keys" }).waitFor();
    expect(await analyst.getByRole("button", { name: "Create API key" }).count()).toBe(0);
    await checkPage(analyst, analystProblems, "API keys (ANALYST)", { screenshot: false });
    await analyst.context().close();
  });
});
