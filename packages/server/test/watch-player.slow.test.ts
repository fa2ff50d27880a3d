/**
 * The watch page as a player, in real Chromium against the built server process, on streams ffmpeg makes
 * (support/hls-stream.ts): an HLS live plays where the browser has no native HLS (hls.js, loaded only then) and
 * where it has (no hls.js); the protocol recorded is the one played (the detail query's `protocols`: `HLS`, and
 * `PROGRESSIVE` for the sample WebM); a zh-CN browser reads Chinese; the controls a viewer expects work from the
 * keyboard (quality for several renditions, seek and speed for a replay, volume, full screen); a stalled live or one
 * whose playlist went missing says it is reconnecting and plays again; axe finds no serious problem and nothing
 * scrolls sideways at 390 px. With SCREENSHOTS=1 it saves the screenshots of docs/player.md.
 */
import { mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  makeReplayStream,
  serveStreams,
  startLiveStream,
  type LiveStream,
  type StreamServer,
} from "./support/hls-stream";
import { pageProblems, seriousAxeViolations, sidewaysScroll, videoPlays } from "./support/page-checks";
import { startServerProcess, type ServerProcess } from "./support/server-process";
import { denyNativeHls, launchChromium, watchFixture, type WatchFixture } from "./support/watch-browser";

const SCREENSHOTS_DIR = fileURLToPath(new URL("../../../docs/player/", import.meta.url));

let server: ServerProcess;
let browser: Browser;
let live: LiveStream;
let replay: { folder: string; remove(): Promise<void> };
let streams: StreamServer;
/** A webinar whose live is the ffmpeg HLS stream and whose replay is a finished HLS stream. */
let hlsWebinar: WatchFixture;
/** A webinar without video URLs: the page plays the sample WebM. */
let sampleWebinar: WatchFixture;

beforeAll(async () => {
  [live, replay] = await Promise.all([startLiveStream(), makeReplayStream(40)]);
  streams = await serveStreams({ live: live.folder, replay: replay.folder });
  server = await startServerProcess({ WEBINAR_DATA_DIR: "memory:", WEBINAR_LOG_LEVEL: "warn" });
  hlsWebinar = await watchFixture(server, {
    liveVideoUrl: streams.url("live"),
    replayVideoUrl: streams.url("replay"),
  });
  sampleWebinar = await watchFixture(server);
  await Promise.all([hlsWebinar.live("START"), sampleWebinar.live("START")]);
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await streams?.close();
  await live?.stop();
  await replay?.remove();
});

interface Viewer {
  uid: number;
  context: BrowserContext;
  page: Page;
  problems: string[];
  /** Every path of the server the page asked for. */
  asked: string[];
}

async function openViewer(
  fixture: WatchFixture,
  name: string,
  options: {
    nativeHls?: boolean;
    locale?: string;
    width?: number;
    /** hls.js is answered only once this settles (a slow network). */
    holdHlsLibrary?: Promise<void>;
  } = {},
): Promise<Viewer> {
  const { uid, loginUrl } = await fixture.viewer(name);
  const context = await browser.newContext({
    locale: options.locale ?? "en-US",
    viewport: { width: options.width ?? 1024, height: 800 },
  });
  if (options.nativeHls === false) await denyNativeHls(context);
  const held = options.holdHlsLibrary;
  if (held !== undefined)
    await context.route("**/w/assets/hls.js", async (route) => {
      await held;
      await route.continue();
    });
  const page = await context.newPage();
  const problems = pageProblems(page);
  const asked: string[] = [];
  page.on("request", (request) => {
    const url = new URL(request.url());
    if (url.origin === server.url) asked.push(url.pathname);
  });
  await page.goto(loginUrl);
  return { uid, context, page, problems, asked };
}

const press = async (page: Page, name: string | RegExp) => page.getByRole("button", { name, exact: true }).click();

describe("an HLS live", () => {
  it("plays through hls.js where the browser has no native HLS, with a quality menu of its renditions", async () => {
    const viewer = await openViewer(hlsWebinar, "hls-js-1", { nativeHls: false });
    const { page } = viewer;
    await page.getByText("Live now").waitFor();
    await press(page, "Play");
    await videoPlays(page, 2);
    expect(viewer.asked).toContain("/w/assets/hls.js");
    expect(await page.evaluate(() => document.querySelector("video")!.src)).toMatch(/^blob:/);
    expect(
      await page.evaluate(() => document.querySelector("video")!.canPlayType("application/vnd.apple.mpegurl")),
    ).toBe("");
    const quality = page.getByLabel("Quality");
    await quality.waitFor();
    expect(await quality.locator("option").allTextContents()).toEqual(["Auto", "360p", "180p"]);
    await quality.selectOption({ label: "180p" });
    await videoPlays(page, 2);
    expect(await page.evaluate(() => document.querySelector("video")!.videoHeight)).toBe(180);
    expect(await page.getByText("LIVE", { exact: true }).isVisible()).toBe(true);
    expect(await page.getByRole("slider", { name: "Position" }).isVisible()).toBe(false);
    expect(viewer.problems).toEqual([]);
    await press(page, "Pause");
    await viewer.context.close();
  }, 90_000);

  it("a Play pressed while hls.js is still downloading plays once it has arrived", async () => {
    let release!: () => void;
    const holdHlsLibrary = new Promise<void>((resolve) => {
      release = resolve;
    });
    const viewer = await openViewer(hlsWebinar, "hls-js-early-play", { nativeHls: false, holdHlsLibrary });
    const { page } = viewer;
    await page.getByText("Live now").waitFor();
    await page.waitForFunction(() => !(document.getElementById("play") as HTMLButtonElement).disabled);
    await press(page, "Play");
    expect(await page.evaluate(() => document.querySelector("video")!.src)).toBe("");
    release();
    await videoPlays(page, 2);
    expect(await page.getByText("The video cannot be played in this browser.").isVisible()).toBe(false);
    expect(viewer.problems).toEqual([]);
    await press(page, "Pause");
    await viewer.context.close();
  }, 90_000);

  it("plays natively where the browser has HLS, without downloading hls.js", async () => {
    const viewer = await openViewer(hlsWebinar, "hls-native-1");
    const { page } = viewer;
    await press(page, "Play");
    await videoPlays(page, 2);
    expect(await page.evaluate(() => document.querySelector("video")!.src)).toBe(streams.url("live"));
    expect(viewer.asked).not.toContain("/w/assets/hls.js");
    expect(viewer.problems).toEqual([]);
    await press(page, "Pause");
    await viewer.context.close();
  }, 90_000);
});

async function saveScreenshot(page: Page, name: string): Promise<void> {
  if (process.env.SCREENSHOTS !== "1") return;
  mkdirSync(SCREENSHOTS_DIR, { recursive: true });
  await page.screenshot({ path: `${SCREENSHOTS_DIR}${name}.png`, fullPage: true });
}

describe("the page in the viewer's language, at 390 px", () => {
  it.each([
    ["en-US", "Live now", "Play", "Pause", "Quality", "en", "watch-hls-en"],
    ["zh-CN", "正在直播", "播放", "暂停", "清晰度", "zh-CN", "watch-hls-zh-CN"],
  ])(
    "%s: reads %s, nothing scrolls sideways, axe finds no serious problem",
    async (locale, live, play, pause, quality, lang, shot) => {
      const viewer = await openViewer(hlsWebinar, `language-${locale}`, { locale, width: 390, nativeHls: false });
      const { page } = viewer;
      await page.getByText(live, { exact: true }).waitFor();
      expect(await page.evaluate(() => document.documentElement.lang)).toBe(lang);
      await press(page, play);
      await videoPlays(page, 2);
      await page.getByLabel(quality).waitFor();
      expect(await page.getByRole("button", { name: pause, exact: true }).isVisible()).toBe(true);
      expect(await sidewaysScroll(page)).toBe(0);
      expect(await seriousAxeViolations(page)).toEqual([]);
      await saveScreenshot(page, shot);
      expect(viewer.problems).toEqual([]);
      await viewer.context.close();
    },
    90_000,
  );

  it("the server's first texts and a refused link's text follow the language too", async () => {
    const { loginUrl } = await hlsWebinar.viewer("language-refused");
    const html = await (
      await fetch(`${server.url}/w/${hlsWebinar.ticketCode}`, {
        headers: { "accept-language": "zh-CN,zh;q=0.9,en;q=0.5" },
      })
    ).text();
    expect(html).toContain('<html lang="zh-CN">');
    expect(html).toContain("正在登录…");
    const context = await browser.newContext({ locale: "zh-CN" });
    const page = await context.newPage();
    await page.goto(loginUrl);
    await page.getByText("正在直播").waitFor();
    const again = await context.newPage();
    await again.goto(loginUrl);
    await again.getByRole("alert").getByText("此链接已被使用，请重新获取链接。").waitFor();
    await context.close();
  }, 60_000);
});

describe("a live that stalls", () => {
  it.each([
    ["its segments are held back at the edge", (held: boolean) => streams.holdSegments(held)],
    ["its playlists answer 404 at the edge", (missing: boolean) => streams.playlistsMissing(missing)],
  ])(
    "%s: the page says it is reconnecting, then plays again",
    async (fault, apply) => {
      const viewer = await openViewer(hlsWebinar, `stall-${fault.split(" ")[1]}`, { nativeHls: false });
      const { page } = viewer;
      await press(page, "Play");
      await videoPlays(page, 2);
      apply(true);
      await page.getByText(/Reconnecting/).waitFor({ timeout: 40_000 });
      apply(false);
      await videoPlays(page, 2, 40_000);
      await page.getByText(/Reconnecting/).waitFor({ state: "hidden", timeout: 10_000 });
      expect(viewer.problems).toEqual([]);
      await viewer.context.close();
    },
    120_000,
  );
});

describe("the controls, from the keyboard", () => {
  it("Tab reaches Play, Mute, the volume and Full screen; Space and Enter press them; focus is visible", async () => {
    const viewer = await openViewer(hlsWebinar, "keyboard-live");
    const { page } = viewer;
    await page.waitForFunction(() => !(document.getElementById("play") as HTMLButtonElement).disabled);
    const reached = new Set<string>();
    for (let presses = 0; presses < 12; presses += 1) {
      await page.keyboard.press("Tab");
      reached.add(await page.evaluate(() => document.activeElement?.id ?? ""));
    }
    expect([...reached]).toEqual(expect.arrayContaining(["play", "mute", "volume", "fullscreen"]));
    await page.focus("#play");
    await page.keyboard.press("Space");
    await page.getByRole("button", { name: "Pause", exact: true }).waitFor();
    expect(await page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle)).toBe("solid");
    await page.focus("#mute");
    await page.keyboard.press("Enter");
    expect(await page.evaluate(() => document.querySelector("video")!.muted)).toBe(true);
    await page.getByRole("button", { name: "Unmute", exact: true }).waitFor();
    await page.keyboard.press("Enter");
    await page.getByRole("button", { name: "Mute", exact: true }).waitFor();
    await page.focus("#volume");
    await page.keyboard.press("ArrowLeft");
    await page.keyboard.press("ArrowLeft");
    expect(await page.evaluate(() => document.querySelector("video")!.volume)).toBeLessThan(1);
    await page.focus("#fullscreen");
    await page.keyboard.press("Enter");
    await page.getByRole("button", { name: "Exit full screen", exact: true }).waitFor();
    expect(await page.evaluate(() => document.fullscreenElement?.id)).toBe("player");
    await page.keyboard.press("Enter");
    await page.getByRole("button", { name: "Full screen", exact: true }).waitFor();
    expect(await page.evaluate(() => document.querySelector("video")!.getAttribute("playsinline"))).toBe("");
    await viewer.context.close();
  }, 60_000);
});

describe("the replay", () => {
  it("has a seek bar and speeds 1x, 1.25x, 1.5x and 2x, from the keyboard too; 390 px does not scroll", async () => {
    await Promise.all([hlsWebinar.live("END"), sampleWebinar.live("END")]);
    const viewer = await openViewer(hlsWebinar, "replay-controls", { nativeHls: false, width: 390 });
    const { page } = viewer;
    await page.getByText("The live has ended. Watch the replay.").waitFor({ timeout: 15_000 });
    await press(page, "Play");
    await videoPlays(page, 1);
    const speed = page.getByLabel("Speed");
    expect(await speed.locator("option").allTextContents()).toEqual(["1x", "1.25x", "1.5x", "2x"]);
    await speed.focus();
    await page.keyboard.press("End");
    await speed.selectOption("2");
    expect(await page.evaluate(() => document.querySelector("video")!.playbackRate)).toBe(2);
    const seek = page.getByRole("slider", { name: "Position" });
    await seek.focus();
    const before = await page.evaluate(() => document.querySelector("video")!.currentTime);
    for (let i = 0; i < 5; i += 1) await page.keyboard.press("ArrowRight");
    await page.waitForFunction((from) => document.querySelector("video")!.currentTime >= from + 4, before);
    expect(await page.getByText("LIVE", { exact: true }).isVisible()).toBe(false);
    expect(await sidewaysScroll(page)).toBe(0);
    expect(await seriousAxeViolations(page)).toEqual([]);
    expect(viewer.problems).toEqual([]);
    await press(page, "Pause");
    await viewer.context.close();
  }, 90_000);
});

describe("the protocol recorded is the one played", () => {
  it("HLS for the ffmpeg stream (hls.js or native), PROGRESSIVE for the sample WebM", async () => {
    const sample = await openViewer(sampleWebinar, "progressive-1");
    await sample.page.getByText("The live has ended. Watch the replay.").waitFor();
    await press(sample.page, "Play");
    await videoPlays(sample.page, 2);
    await press(sample.page, "Pause");
    await sample.page.waitForTimeout(500);
    await sample.context.close();
    await Promise.all([hlsWebinar.finalize(), sampleWebinar.finalize()]);

    const detail = await hlsWebinar.client.queryViewerWatch({
      ticketCode: hlsWebinar.ticketCode,
      playbackMode: "ALL",
      sort: "WATCH_SECONDS_DESC",
      pageSize: 100,
    });
    const played = detail.items.filter((item) => item.sessionCount > 0);
    expect(played.length).toBeGreaterThan(3);
    for (const item of played) expect(item.protocols, `uid ${item.uid}`).toEqual(["HLS"]);
    expect((await sampleWebinar.watchOf(sample.uid, "REPLAY"))?.protocols).toEqual(["PROGRESSIVE"]);
  }, 90_000);
});
