/**
 * Load benchmark of the built server (`pnpm bench:load` from the root: it builds first). Not a test: it prints
 * figures and asserts nothing, except that every answer was right (an error makes the exit code 1).
 *
 * The server is a black box: `node <server main.js>` with the environment an operator sets (PORT,
 * WEBINAR_DATA_DIR or DATABASE_URL, WEBINAR_SECRET_KEY, WEBINAR_ADMIN_TOKEN, WEBINAR_SEED_DEMO=false), its data
 * made through the admin API and the signed Open API (load/fixture.ts). So `--server` can point at the build of
 * another checkout and compare it with this one on the same machine, in the same session.
 *
 * autocannon drives five Open API operations (upsert of a new viewer, upsert of an existing viewer, issue login
 * ticket, watch-data overview, a 100-viewer detail page of a finalized webinar), every request signed afresh,
 * and the watch page's heartbeats of N viewers of a live webinar, each viewer with a watch session and a
 * playback session of its own made before the timed runs (load/live-viewers.ts); every answer is checked
 * (load/measure.ts). On PGlite (a temporary data directory) and on PostgreSQL (databases made for the run at
 * 127.0.0.1:5432 and dropped after). Beside each row, in the same run, the floor app (load/floor-app.ts:
 * node:http and the same driver, one statement per request) gives what no server can beat here; the
 * server/floor ratio is the figure to compare. On PostgreSQL two server processes on one database are measured
 * against one. Figures per row: req/s, p50 and p99 latency, process CPU per request (Linux); for the heartbeats
 * also the viewers one process carries at the page's 15 s interval.
 *
 * `--profile <operation>` runs the server under `node --cpu-prof` for that operation only and prints where its
 * busy time went in the measured seconds (load/cpu-profile.ts).
 *
 * `--tracing` then measures every operation again in rounds (`--rounds`, default 3) on the ordinary server and on
 * three variants started beside it on the same data: tracing on with every span exported to a local OTLP sink in
 * a process of its own (load/otlp-sink.ts), tracing on with 10% of traces sampled, and the request log off; each
 * round measures every server and the floor once, in an order turned by one each round, the next only once the
 * sink has received a traced server's last exports. It prints each one's cost (tracing's, or the
 * request log's: the median of the rounds, each round's beside it) beside its goal, and the server's CPU per
 * request.
 *
 * Options: `--help` lists them (durations, connections, databases, viewers, `--only`, `--profile`, `--json`,
 * `--quick`, `--server`).
 */
import { TWO_PROCESS_OPERATIONS } from "./load/operations";
import { loadBenchOptions } from "./load/options";
import { jsonReport, textReport } from "./load/report";
import { runLoadBench, stopEverything, tracingVariants } from "./load/run-load-bench";

const options = loadBenchOptions(process.argv.slice(2), process.env);
if (options !== undefined) {
  // An interrupted run still stops its processes and drops its databases.
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => void stopEverything().finally(() => process.exit(130)));
  }
  // Per database a server row and a floor row per operation; on PostgreSQL one and two processes per operation;
  // with --tracing, per round the ordinary server, each variant and the floor, at full load and at the offered load.
  const perRound = (1 + tracingVariants(options).length + 1) * 2;
  const rows =
    options.operations.length * 2 * options.databases.length +
    (options.twoProcesses && options.databases.includes("postgres") ? TWO_PROCESS_OPERATIONS.length * 2 : 0) +
    (options.tracing ? options.operations.length * options.databases.length * options.rounds * perRound : 0);
  process.stderr.write(
    `Load benchmark: ${rows} rows of ${options.warmupSeconds} + ${options.durationSeconds} s, about ${Math.ceil((rows * (options.warmupSeconds + options.durationSeconds)) / 60)} min plus setup\n`,
  );
  try {
    const result = await runLoadBench(options);
    process.stdout.write(options.json ? jsonReport(result) : textReport(result));
    if (result.errors > 0) process.exitCode = 1;
  } catch (error) {
    process.stderr.write(
      `load benchmark failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exitCode = 1;
  }
}
