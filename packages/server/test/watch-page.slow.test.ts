/**
 * The whole path of a viewer in real Chromium: open the loginUrl, the live starts, press Play, watch 20 s, pause
 * 10 s, the live ends and is finalized; queryViewerWatch shows the watched time as LIVE seconds (within one
 * heartbeat interval) and getWatchOverview counts the viewer. Then the replay: time offline is not credited, nor
 * time while the page is hidden (another tab in front) although the video plays on.
 * The server is the built process, on PGlite and on PostgreSQL: the two paths run at the same time (each in its own
 * browser, against its own server), since most of each is waiting for real seconds to pass; within one database
 * the steps run in order, the replay's after the live has ended.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { createPostgresDatabase, DATABASE_KINDS } from "./support/databases";
import { startServerProcess, type ServerProcess } from "./support/server-process";
import {
  foreignRequests,
  launchChromium,
  setPageVisibility,
  watchFixture,
  type WatchFixture,
} from "./support/watch-browser";

const HEARTBEAT_INTERVAL_SECONDS = 15;

describe.concurrent.each(DATABASE_KINDS)("on %s", (kind) => {
  let server: ServerProcess;
  let browser: Browser;
  let fixture: WatchFixture;
  let dropDatabase: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    let storage: Record<string, string> = { WEBINAR_DATA_DIR: "memory:" };
    if (kind === "postgres") {
      const database = await createPostgresDatabase("watch_page");
      dropDatabase = database.drop;
      storage = { DATABASE_URL: database.url };
    }
    server = await startServerProcess({ ...storage, WEBINAR_LOG_LEVEL: "warn" });
    fixture = await watchFixture(server);
    browser = await launchChromium();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await dropDatabase?.();
  });

  it.sequential("watch 20 s of the live, pause 10 s, end and finalize: the detail shows the watched LIVE seconds, the overview counts the viewer", async () => {
    const { uid, loginUrl } = await fixture.viewer("watcher-1");
    const page = await browser.newPage();
    const foreign = foreignRequests(page, new URL(server.url).origin);
    await page.goto(loginUrl);
    await page.getByText("Scheduled").waitFor();

    await fixture.live("START");
    const play = page.getByRole("button", { name: "Play" });
    await play.waitFor();
    await page.waitForFunction(() => !(document.getElementById("play") as HTMLButtonElement).disabled, undefined, {
      timeout: 15_000,
    });
    await play.click();
    await page.getByRole("button", { name: "Pause" }).waitFor();
    await page.waitForFunction(() => {
      const video = document.querySelector("video")!;
      return !video.paused && video.currentTime > 0;
    });
    const playingSince = Date.now();
    await page.waitForTimeout(20_000);
    await page.getByRole("button", { name: "Pause" }).click();
    const watchedSeconds = (Date.now() - playingSince) / 1000;
    await page.getByRole("button", { name: "Play" }).waitFor();
    await page.waitForTimeout(10_000);

    await fixture.live("END");
    await page.getByText("Watch the replay").waitFor({ timeout: 15_000 });
    await fixture.finalize();

    const detail = await fixture.client.queryViewerWatch({
      ticketCode: fixture.ticketCode,
      playbackMode: "LIVE",
      uids: [uid],
      sort: "WATCH_SECONDS_DESC",
      pageSize: 10,
    });
    const item = detail.items.find((entry) => entry.uid === uid);
    const overview = await fixture.client.getWatchOverview({ ticketCode: fixture.ticketCode, playbackMode: "LIVE" });
    console.log(
      `watch page (${kind}): played ${watchedSeconds.toFixed(1)} s then paused 10 s -> LIVE ${item?.liveWatchSeconds} s credited in ${item?.sessionCount} session(s); ` +
        `overview LIVE viewers ${overview.registered.viewerCount}, ${overview.liveWatchSeconds} s; requests to other hosts: ${foreign.length}`,
    );
    expect(item).toBeDefined();
    expect(Math.abs(item!.liveWatchSeconds - watchedSeconds)).toBeLessThanOrEqual(HEARTBEAT_INTERVAL_SECONDS);
    expect(item!.replayWatchSeconds).toBe(0);
    expect(overview.registered.viewerCount).toBe(1);
    expect(overview.liveWatchSeconds).toBe(item!.liveWatchSeconds);
    expect(foreign).toEqual([]);
    await page.close();
  }, 120_000);

  /**
   * Plays the replay 5 s, then `gap` (going offline, hiding the page) for `gapSeconds` while the video keeps
   * playing, then 5 s more, and pauses. Returns what the detail credits and how long each stretch really was.
   */
  async function replayWithGap(
    externalUserId: string,
    gapSeconds: number,
    gap: (page: Page, context: BrowserContext, during: boolean) => Promise<void>,
  ) {
    const { uid, loginUrl } = await fixture.viewer(externalUserId);
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(loginUrl);
    await page.getByText("Watch the replay").waitFor();
    await page.getByRole("button", { name: "Play" }).click();
    await page.waitForFunction(() => {
      const video = document.querySelector("video")!;
      return !video.paused && video.currentTime > 0;
    });
    const videoTime = () => page.evaluate(() => document.querySelector("video")!.currentTime);
    const started = Date.now();
    await page.waitForTimeout(5_000);
    await gap(page, context, true);
    const gapSince = Date.now();
    const videoTimeAtGap = await videoTime();
    await page.waitForTimeout(gapSeconds * 1000);
    const videoAdvancedInGap = (await videoTime()) - videoTimeAtGap;
    await gap(page, context, false);
    const measuredGapSeconds = (Date.now() - gapSince) / 1000;
    await page.waitForTimeout(5_000);
    await page.getByRole("button", { name: "Pause" }).click();
    const countedSeconds = (Date.now() - started) / 1000 - measuredGapSeconds;
    await page.getByRole("button", { name: "Play" }).waitFor();
    // The pause's heartbeat is on its way; give it a moment before reading.
    await page.waitForTimeout(1_000);
    await context.close();

    const detail = await fixture.client.queryViewerWatch({
      ticketCode: fixture.ticketCode,
      playbackMode: "REPLAY",
      uids: [uid],
      sort: "WATCH_SECONDS_DESC",
      pageSize: 10,
    });
    const item = detail.items.find((entry) => entry.uid === uid);
    return { item, countedSeconds, gapSeconds: measuredGapSeconds, videoAdvancedInGap };
  }

  it.sequential("the replay after the live: time while the browser is offline is not credited", async () => {
    const { item, countedSeconds, gapSeconds } = await replayWithGap("watcher-offline", 25, (_page, context, during) =>
      context.setOffline(during),
    );
    console.log(
      `watch page replay (${kind}): ${countedSeconds.toFixed(1)} s playing online, ${gapSeconds.toFixed(1)} s offline -> REPLAY ${item?.replayWatchSeconds} s credited`,
    );
    expect(item).toBeDefined();
    expect(item!.liveWatchSeconds).toBe(0);
    // Some online time goes uncredited too: the stretch between the last heartbeat and the connection's loss
    // (the beat that would credit it cannot be sent offline).
    expect(item!.replayWatchSeconds).toBeGreaterThan(0);
    expect(item!.replayWatchSeconds).toBeLessThanOrEqual(Math.ceil(countedSeconds) + 2);
  }, 120_000);

  it.sequential("the replay in a hidden tab: the video plays on, but time while the page is hidden is not credited", async () => {
    const { item, countedSeconds, gapSeconds, videoAdvancedInGap } = await replayWithGap(
      "watcher-hidden",
      20,
      (page, _context, during) => setPageVisibility(page, during ? "hidden" : "visible"),
    );
    console.log(
      `watch page hidden tab (${kind}): ${countedSeconds.toFixed(1)} s visible, ${gapSeconds.toFixed(1)} s hidden ` +
        `(video advanced ${videoAdvancedInGap.toFixed(1)} s meanwhile) -> REPLAY ${item?.replayWatchSeconds} s credited`,
    );
    // Only the page's visibility kept that time from being credited: the video played on.
    expect(videoAdvancedInGap).toBeGreaterThan(0);
    expect(item).toBeDefined();
    expect(item!.liveWatchSeconds).toBe(0);
    // Hiding and pausing each send their beat at once, so the visible time is credited whole.
    expect(item!.replayWatchSeconds).toBeGreaterThanOrEqual(Math.floor(countedSeconds) - 2);
    expect(item!.replayWatchSeconds).toBeLessThanOrEqual(Math.ceil(countedSeconds) + 2);
  }, 120_000);
});
