/**
 * The accuracy harness of the watch page's crediting: scripted viewers in real Chromium play known schedules of
 * an ffmpeg HLS stream through the page (hls.js: the browser is told it has no native HLS), and each schedule's
 * effective seconds from the Open API (queryViewerWatch's `liveWatchSeconds` / `replayWatchSeconds`) are compared
 * with the truth measured in the page.
 *
 * The truth is measured by the script, not by the page's own logic: every 100 ms an init script reads the video's
 * `currentTime`, and a stretch counts as watched when the picture advanced in it while the page was visible and
 * online at both ends (so a paused, stalled, hidden or offline stretch does not count; a 2x replay counts its
 * wall-clock time). Two tabs of one viewer count the union of their watched stretches.
 *
 * Each schedule has a webinar of its own (a stall held back at one edge must not stall the others), so they run
 * side by side. The test (watch-accuracy.slow.test.ts) runs them short with a short heartbeat interval; the
 * benchmark (bench/watch-accuracy.bench.ts) runs them longer and prints the table.
 */
import type { Browser, BrowserContext, Page } from "playwright-core";
import { type LiveStream, makeReplayStream, serveStreams, startLiveStream, type StreamServer } from "./hls-stream";
import type { ServerProcess } from "./server-process";
import { denyNativeHls, setPageVisibility, watchFixture, type WatchFixture } from "./watch-browser";

/** A stretch of watched time, epoch milliseconds. */
type Stretch = [number, number];

/** Installs the truth sampler in every page of the context. */
async function measureTruth(context: BrowserContext): Promise<void> {
  // tsx (the benchmark's runner) names functions through a `__name` helper, which the functions this harness
  // sends into the page then call: the page gets one that does nothing.
  await context.addInitScript({ content: "globalThis.__name ??= (target) => target;" });
  await context.addInitScript(() => {
    const stretches: [number, number][] = [];
    let last: { at: number; time: number; watchable: boolean } | undefined;
    (window as unknown as { watchedStretches: () => [number, number][] }).watchedStretches = () => stretches;
    setInterval(() => {
      const video = document.querySelector("video");
      if (video === null) return;
      const now = Date.now();
      const watchable = document.visibilityState === "visible" && navigator.onLine;
      if (last?.watchable && watchable && video.currentTime > last.time) {
        const open = stretches[stretches.length - 1];
        if (open !== undefined && open[1] === last.at) open[1] = now;
        else stretches.push([last.at, now]);
      }
      last = { at: now, time: video.currentTime, watchable };
    }, 100);
  });
}

/** Seconds covered by the union of `stretches`. */
export function unionSeconds(stretches: readonly Stretch[]): number {
  const sorted = [...stretches].sort((a, b) => a[0] - b[0]);
  let total = 0;
  let end = -Infinity;
  for (const [from, to] of sorted) {
    if (to <= end) continue;
    total += to - Math.max(from, end);
    end = to;
  }
  return total / 1000;
}

export interface ScheduleContext {
  /** The viewer's first page, signed in, on the webinar. */
  page: Page;
  context: BrowserContext;
  /** The stream's edge (held back for a stall). */
  edge: StreamServer;
  /** Another tab of the same viewer (same cookies), signed in by the session cookie. */
  openTab(): Promise<Page>;
  /** `seconds` of the schedule's unit (the test's are short, the benchmark's longer). */
  wait(units: number): Promise<void>;
}

export interface Schedule {
  name: string;
  mode: "LIVE" | "REPLAY";
  /** What the viewer does, from a signed-in page on. */
  run(viewer: ScheduleContext): Promise<void>;
  /** How far below the truth the report may be, in heartbeat intervals, and why. */
  lossIntervals: number;
  why: string;
}

export const press = (page: Page, name: string) => page.getByRole("button", { name, exact: true }).click();

/** How long the page may take to be ready and the picture to move: hls.js loads and buffers a live edge first,
 * which on a busy shared machine can take longer than Playwright's default wait. */
const START_TIMEOUT_MS = 90_000;

/** Presses Play and waits until the picture moves. */
export async function play(page: Page): Promise<void> {
  await page.waitForFunction(() => !(document.getElementById("play") as HTMLButtonElement).disabled, undefined, {
    timeout: START_TIMEOUT_MS,
  });
  await press(page, "Play");
  await page.waitForFunction(
    () => {
      const video = document.querySelector("video")!;
      return !video.paused && video.currentTime > 0 && video.readyState >= 3;
    },
    undefined,
    { timeout: START_TIMEOUT_MS },
  );
}

export const SCHEDULES: readonly Schedule[] = [
  {
    name: "play",
    mode: "LIVE",
    lossIntervals: 1,
    why: "the start's trip to the server and the whole seconds",
    async run({ page, wait }) {
      await play(page);
      await wait(4);
      await press(page, "Pause");
    },
  },
  {
    name: "pause",
    mode: "LIVE",
    lossIntervals: 1,
    why: "as play; the pause and the resume each report at once",
    async run({ page, wait }) {
      await play(page);
      await wait(2);
      await press(page, "Pause");
      await wait(2);
      await play(page);
      await wait(2);
      await press(page, "Pause");
    },
  },
  {
    name: "hidden tab",
    mode: "LIVE",
    lossIntervals: 1,
    why: "as play; hiding and showing each report at once",
    async run({ page, wait, openTab }) {
      await play(page);
      await wait(2);
      // A second tab brought to the front hides the first; headless Chromium keeps both visible, so the first
      // page is told it is hidden as a browser would tell it.
      const other = await openTab();
      await other.bringToFront();
      await setPageVisibility(page, "hidden");
      await wait(2);
      await other.close();
      await page.bringToFront();
      await setPageVisibility(page, "visible");
      await wait(2);
      await press(page, "Pause");
    },
  },
  {
    name: "stall",
    mode: "LIVE",
    lossIntervals: 1,
    why: "as play; a stall reports when the picture stops (waiting) and again when it moves",
    async run({ page, wait, edge }) {
      await play(page);
      await wait(2);
      edge.holdSegments(true);
      await page.getByText(/Reconnecting/).waitFor({ timeout: 60_000 });
      edge.holdSegments(false);
      await page.waitForFunction(() => document.getElementById("notice")!.hidden, undefined, { timeout: 60_000 });
      await wait(2);
      await press(page, "Pause");
    },
  },
  {
    name: "offline",
    mode: "LIVE",
    lossIntervals: 2,
    why: "the time since the last heartbeat before the connection went is lost (its beat cannot be sent), and the resume after it",
    async run({ page, context, wait }) {
      await play(page);
      await wait(2);
      await context.setOffline(true);
      await wait(2);
      await context.setOffline(false);
      await page.waitForFunction(
        (since) => {
          const video = document.querySelector("video")!;
          return !video.paused && video.currentTime > since;
        },
        await page.evaluate(() => document.querySelector("video")!.currentTime),
        { timeout: 60_000 },
      );
      await wait(2);
      await press(page, "Pause");
    },
  },
  {
    name: "two tabs",
    mode: "LIVE",
    lossIntervals: 1,
    why: "as play; the overlap of the two tabs is credited once",
    async run({ page, wait, openTab }) {
      await play(page);
      await wait(2);
      const other = await openTab();
      await play(other);
      await wait(2);
      await press(page, "Pause");
      await wait(2);
      await press(other, "Pause");
    },
  },
  {
    name: "replay at 2x",
    mode: "REPLAY",
    lossIntervals: 1,
    why: "as play; wall-clock seconds are credited, not the content's",
    async run({ page, wait }) {
      await page.getByLabel("Speed").selectOption("2");
      await play(page);
      await wait(4);
      await press(page, "Pause");
    },
  },
];

export interface ScheduleResult {
  name: string;
  mode: "LIVE" | "REPLAY";
  truth: number;
  reported: number;
  /** reported − truth, seconds. */
  error: number;
  /** The lowest report the schedule's tolerance allows. */
  lowest: number;
  /** The highest: the truth, to the whole second (the report is whole seconds). */
  highest: number;
  why: string;
}

/**
 * Runs every schedule side by side on `server` (started with `heartbeatIntervalSeconds`), each
 * `unitSeconds` per unit of its schedule, and reads what the Open API reports for each.
 */
export async function runSchedules(
  browser: Browser,
  server: ServerProcess,
  options: {
    heartbeatIntervalSeconds: number;
    unitSeconds: number;
    /** How many schedules play at once (each is a page decoding video: a loaded machine starves their timers). */
    concurrency: number;
    schedules?: readonly Schedule[];
  },
): Promise<ScheduleResult[]> {
  const schedules = options.schedules ?? SCHEDULES;
  const live: LiveStream = await startLiveStream();
  const replay = await makeReplayStream(Math.ceil(options.unitSeconds * 12) + 10);
  const edges: StreamServer[] = [];
  try {
    return await inBatches(schedules, options.concurrency, async (schedule): Promise<ScheduleResult> => {
      const edge = await serveStreams({ live: live.folder, replay: replay.folder });
      edges.push(edge);
      const fixture: WatchFixture = await watchFixture(server, {
        liveVideoUrl: edge.url("live"),
        replayVideoUrl: edge.url("replay"),
      });
      await fixture.live("START");
      if (schedule.mode === "REPLAY") await fixture.live("END");
      const { uid, loginUrl } = await fixture.viewer(`accuracy-${schedule.name.replaceAll(" ", "-")}`);
      const context = await browser.newContext({ viewport: { width: 800, height: 600 } });
      await denyNativeHls(context);
      await measureTruth(context);
      const pages: Page[] = [];
      const page = await context.newPage();
      pages.push(page);
      await page.goto(loginUrl);
      await page.getByText(schedule.mode === "LIVE" ? "Live now" : "Watch the replay").waitFor();
      await schedule.run({
        page,
        context,
        edge,
        async openTab() {
          const tab = await context.newPage();
          pages.push(tab);
          await tab.goto(`${server.url}/w/${fixture.ticketCode}`);
          return tab;
        },
        wait: (units) => page.waitForTimeout(units * options.unitSeconds * 1000),
      });
      const stretches: Stretch[] = [];
      for (const each of pages) {
        if (!each.isClosed())
          stretches.push(...(await each.evaluate(() => (window as any).watchedStretches() as [number, number][])));
      }
      // The last pause's heartbeat is on its way; let it arrive before the report is read.
      await page.waitForTimeout(1000);
      await context.close();
      if (schedule.mode === "LIVE") await fixture.live("END");
      await fixture.finalize();
      const record = await fixture.watchOf(uid, schedule.mode);
      const reported = (schedule.mode === "LIVE" ? record?.liveWatchSeconds : record?.replayWatchSeconds) ?? 0;
      const truth = unionSeconds(stretches);
      return {
        name: schedule.name,
        mode: schedule.mode,
        truth,
        reported,
        error: reported - truth,
        lowest: Math.floor(truth - schedule.lossIntervals * options.heartbeatIntervalSeconds),
        highest: Math.ceil(truth),
        why: schedule.why,
      };
    });
  } finally {
    await Promise.all(edges.map((edge) => edge.close()));
    await live.stop();
    await replay.remove();
  }
}

/** `work` on each item, at most `concurrency` at once, the results in the items' order. */
async function inBatches<T, R>(items: readonly T[], concurrency: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  for (let start = 0; start < items.length; start += concurrency)
    results.push(...(await Promise.all(items.slice(start, start + concurrency).map(work))));
  return results;
}

/** The results as a Markdown table (docs/player.md shows one). */
export function resultTable(results: readonly ScheduleResult[]): string {
  const rows = results.map(
    (result) =>
      `| ${result.name} | ${result.mode} | ${result.truth.toFixed(1)} | ${result.reported} | ${result.error >= 0 ? "+" : ""}${result.error.toFixed(1)} | ${result.lowest} to ${result.highest} |`,
  );
  return [
    "| Schedule | Mode | Truth (s) | Reported (s) | Error (s) | Allowed (s) |",
    "|---|---|---|---|---|---|",
    ...rows,
  ].join("\n");
}
