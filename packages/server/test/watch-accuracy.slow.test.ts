/**
 * The crediting against the truth, in real Chromium (support/watch-accuracy.ts): scripted viewers play an ffmpeg
 * HLS stream through the page in known schedules (play, pause, a hidden tab, a stall at the edge, offline, two tabs
 * of one viewer, a replay at 2x), and the effective seconds the Open API reports for each must lie between the
 * truth less the schedule's stated loss (in heartbeat intervals) and the truth itself, to the whole second: never
 * more than the truth. The server runs with a 2-second heartbeat interval so the schedules take seconds; on PGlite
 * and on PostgreSQL.
 */
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPostgresDatabase, DATABASE_KINDS } from "./support/databases";
import { startServerProcess, type ServerProcess } from "./support/server-process";
import { resultTable, runSchedules, SCHEDULES, type ScheduleResult } from "./support/watch-accuracy";
import { launchChromium } from "./support/watch-browser";

const HEARTBEAT_INTERVAL_SECONDS = 2;
/** Seconds per unit of a schedule: a schedule of 6 units plays about 12 s. */
const UNIT_SECONDS = 2;
/** Schedules played at once: two keep the run short without starving the pages of a shared 2-core machine. */
const CONCURRENCY = 2;

describe.each(DATABASE_KINDS)("on %s", (kind) => {
  let server: ServerProcess;
  let browser: Browser;
  let dropDatabase: (() => Promise<void>) | undefined;
  let results: ScheduleResult[];

  beforeAll(async () => {
    let storage: Record<string, string> = { WEBINAR_DATA_DIR: "memory:" };
    if (kind === "postgres") {
      const database = await createPostgresDatabase("watch_accuracy");
      dropDatabase = database.drop;
      storage = { DATABASE_URL: database.url };
    }
    server = await startServerProcess({
      ...storage,
      WEBINAR_LOG_LEVEL: "warn",
      WEBINAR_HEARTBEAT_INTERVAL_SECONDS: String(HEARTBEAT_INTERVAL_SECONDS),
    });
    browser = await launchChromium();
    results = await runSchedules(browser, server, {
      heartbeatIntervalSeconds: HEARTBEAT_INTERVAL_SECONDS,
      unitSeconds: UNIT_SECONDS,
      concurrency: CONCURRENCY,
    });
    console.log(`watch accuracy (${kind}, heartbeat ${HEARTBEAT_INTERVAL_SECONDS} s):\n${resultTable(results)}`);
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await dropDatabase?.();
  });

  it.each(SCHEDULES.map((schedule) => [schedule.name, schedule.why] as const))(
    "%s: reported within its tolerance of the truth, never above it (%s)",
    (name) => {
      const result = results.find((each) => each.name === name)!;
      expect(result.truth).toBeGreaterThan(2);
      expect(result.reported).toBeLessThanOrEqual(result.highest);
      expect(result.reported).toBeGreaterThanOrEqual(result.lowest);
    },
  );
});
