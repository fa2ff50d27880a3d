/**
 * The watch page's crediting against the truth (`pnpm bench:watch-accuracy` from the root, or `pnpm --filter
 * @org/webinar-server bench:watch-accuracy`). Not a test: it prints, for each schedule of
 * test/support/watch-accuracy.ts, the truth measured in the page, the seconds the Open API reports and the error,
 * on the built server with the default heartbeat interval (15 s) and schedules long enough for several heartbeats.
 *
 * Options (environment):
 *   BENCH_ACCURACY_INTERVAL=15     heartbeat interval of the server, seconds
 *   BENCH_ACCURACY_UNIT=10         seconds per unit of a schedule (a 6-unit schedule plays a minute)
 *   BENCH_ACCURACY_CONCURRENCY=2   schedules played at once
 *   DATABASE_URL=postgres://…      run on PostgreSQL instead of PGlite
 */
import { startServerProcess } from "../test/support/server-process";
import { resultTable, runSchedules } from "../test/support/watch-accuracy";
import { launchChromium } from "../test/support/watch-browser";

const number = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const heartbeatIntervalSeconds = number("BENCH_ACCURACY_INTERVAL", 15);
const unitSeconds = number("BENCH_ACCURACY_UNIT", 10);
const concurrency = number("BENCH_ACCURACY_CONCURRENCY", 2);
const storage = process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : { WEBINAR_DATA_DIR: "memory:" };

const server = await startServerProcess({
  ...storage,
  WEBINAR_LOG_LEVEL: "warn",
  WEBINAR_HEARTBEAT_INTERVAL_SECONDS: String(heartbeatIntervalSeconds),
});
const browser = await launchChromium();
try {
  const results = await runSchedules(browser, server, { heartbeatIntervalSeconds, unitSeconds, concurrency });
  console.log(
    `Watch accuracy on ${"DATABASE_URL" in storage ? "PostgreSQL" : "PGlite"}: heartbeat ${heartbeatIntervalSeconds} s, ` +
      `${unitSeconds} s per unit, ${concurrency} at once\n`,
  );
  console.log(resultTable(results));
  const outside = results.filter((result) => result.reported < result.lowest || result.reported > result.highest);
  console.log(
    `\n${outside.length === 0 ? "every schedule within its tolerance" : `outside: ${outside.map((result) => result.name).join(", ")}`}`,
  );
} finally {
  await browser.close();
  await server.stop();
}
