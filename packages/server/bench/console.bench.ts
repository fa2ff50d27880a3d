/**
 * The merchant console's watch data at scale, through the console API over HTTP on PostgreSQL (`pnpm bench` from
 * the root runs it after the load benchmark; alone, after `pnpm build`: `pnpm --filter @org/webinar-server
 * bench:console`). Not a test: it prints figures and asserts nothing. Beside each figure, a floor measured in the
 * same run on the same database: the same work in process without HTTP, the session check or JSON (the machine may
 * be shared, so compare each figure with its floor rather than with another run's).
 *
 * The server is this checkout's build, started as an operator starts it (`node dist/main.js`, bench/load/processes.ts),
 * so its memory is its own; this process seeds the data and measures the floors through a connection of its own.
 *
 * - A page of 100 rows (queryViewers) from a webinar with N records (default 1M: test/support/bulk-seed.ts),
 *   first pages and pages further in through the cursor: p50 and p95.
 * - The per-minute concurrency series (getConcurrencySeries) of a 3-hour live with 50k playback sessions.
 * - The CSV export (exportViewers) of the N records: rows per second, and the growth of the server process's
 *   resident memory while it streams (the client, in a process of its own, discards what it reads).
 *
 * Options (environment): BENCH_CONSOLE_N (records, default 1000000), BENCH_CONSOLE_SESSIONS (default 50000),
 * BENCH_CONSOLE_REPS (timed requests per figure, default 40), BENCH_POSTGRES_URL.
 */
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { fileURLToPath } from "node:url";
import { type Kysely, sql } from "kysely";
import type { QueryViewerWatchRequest } from "@org/webinar-types";
import { EXPORT_CHUNK_SIZE } from "../src/console/export-viewers";
import { connectDatabase } from "../src/db/connect";
import type { Database } from "../src/db/schema";
import { readViewerPage } from "../src/watch-data/viewer-query";
import { streamViewerRecords } from "../src/watch-data/viewer-stream";
import type { WatchedWebinar } from "../src/watch-data/webinar-state";
import { bulkSeedWatchData } from "../test/support/bulk-seed";
import { BUILT_SERVER_MAIN, processResidentBytes, type RunningProcess, startProcess } from "./load/processes";
import { createBenchDatabase } from "./bench-database";

const RECORDS = Number(process.env.BENCH_CONSOLE_N ?? 1_000_000);
const SESSIONS = Number(process.env.BENCH_CONSOLE_SESSIONS ?? 50_000);
const REPS = Number(process.env.BENCH_CONSOLE_REPS ?? 40);
const ADMIN_TOKEN = randomBytes(16).toString("hex");
const DOWNLOAD_CSV = fileURLToPath(new URL("./console/download-csv.mjs", import.meta.url));

function percentile(times: number[], fraction: number): number {
  const sorted = [...times].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))]!;
}

async function timed(run: () => Promise<unknown>): Promise<{ p50: number; p95: number }> {
  for (let i = 0; i < 3; i += 1) await run();
  const times: number[] = [];
  for (let i = 0; i < REPS; i += 1) {
    const started = performance.now();
    await run();
    times.push(performance.now() - started);
  }
  return { p50: percentile(times, 0.5), p95: percentile(times, 0.95) };
}

const ms = (value: number) => `${value.toFixed(1)} ms`;
const print = (line: string) => process.stdout.write(`${line}\n`);

async function main(): Promise<void> {
  const database = await createBenchDatabase("console");
  try {
    // Migrates the new database before the server starts on it.
    const handle = await connectDatabase(
      { kind: "postgres", databaseUrl: database.url },
      { connectTimeoutMs: 5000, statementTimeoutMs: 600_000, poolMax: 2 },
    );
    try {
      const server = await startProcess({
        name: "server",
        nodeArguments: [BUILT_SERVER_MAIN],
        env: {
          ...process.env,
          DATABASE_URL: database.url,
          WEBINAR_SECRET_KEY: randomBytes(32).toString("hex"),
          WEBINAR_ADMIN_TOKEN: ADMIN_TOKEN,
          WEBINAR_SEED_DEMO: "false",
          WEBINAR_LOG_LEVEL: "warn",
        },
      });
      try {
        await run(server, handle.db);
      } finally {
        await server.stop();
      }
    } finally {
      await handle.close();
    }
  } finally {
    await database.drop();
  }
}

async function run(server: RunningProcess, db: Kysely<Database>): Promise<void> {
  const { url } = server;
  const admin = async (path: string, body: unknown) =>
    (await fetch(`${url}${path}`, {
      method: "POST",
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    }).then((response) => response.json())) as Record<string, string>;
  const { merchantId } = await admin("/admin/v1/merchants", { name: "Console bench" });
  const { inviteUrl } = await admin(`/admin/v1/merchants/${merchantId}/console-users`, { email: "bench@example.com" });
  const accepted = await fetch(`${url}/console/api/session/invite`, {
    method: "POST",
    headers: { origin: url, "content-type": "application/json" },
    body: JSON.stringify({ token: new URL(inviteUrl!).hash.slice("#token=".length), password: "bench password 1" }),
  });
  const cookie = accepted.headers.getSetCookie()[0]!.split(";")[0]!;
  const call = (method: string, path: string, body?: unknown) =>
    fetch(`${url}${path}`, {
      method,
      headers: { origin: url, cookie, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });

  await seriesFigures(db, admin, merchantId!, call);

  // A webinar with RECORDS registered viewers' records.
  const { ticketCode } = await admin(`/admin/v1/merchants/${merchantId}/webinars`, { title: "Records" });
  const webinar = await db
    .selectFrom("webinars")
    .select("id")
    .where("ticket_code", "=", ticketCode!)
    .executeTakeFirstOrThrow();
  const started = performance.now();
  await bulkSeedWatchData(db, { merchantId: merchantId!, webinarId: webinar.id, count: RECORDS });
  await sql`analyze`.execute(db);
  print(
    `Console watch data on PostgreSQL: ${RECORDS} records seeded in ${((performance.now() - started) / 1000).toFixed(0)} s`,
  );

  // A page of 100, first and through the cursor, via HTTP; the floor: the same query in process.
  const query = { mode: "LIVE", sort: "WATCH_SECONDS_DESC", pageSize: 100 } as const;
  const pagePath = `/console/api/webinars/${ticketCode}/watch/viewers/query`;
  const first = (await (await call("POST", pagePath, query)).json()) as { nextCursor: string };
  const httpFirst = await timed(async () => (await call("POST", pagePath, query)).arrayBuffer());
  const httpNext = await timed(async () =>
    (await call("POST", pagePath, { ...query, cursor: first.nextCursor })).arrayBuffer(),
  );
  const watched = { id: webinar.id, liveStatus: "NOT_STARTED" as const, liveStartedAt: null, liveFinalizedAt: null };
  const openQuery: QueryViewerWatchRequest = {
    ticketCode: ticketCode!,
    playbackMode: "LIVE",
    sort: "WATCH_SECONDS_DESC",
    pageSize: 100,
  };
  const cursorKey = randomBytes(32);
  const floorPage = await timed(() => readViewerPage(db, merchantId!, watched, openQuery, undefined, cursorKey));
  print(
    `  page of 100 (queryViewers): first p50 ${ms(httpFirst.p50)} p95 ${ms(httpFirst.p95)}; next p50 ${ms(httpNext.p50)} p95 ${ms(httpNext.p95)}  (goal p95 < 200 ms)`,
  );
  print(`    floor, the detail query in process: p50 ${ms(floorPage.p50)} p95 ${ms(floorPage.p95)}`);

  await exportFigures(server, cookie, ticketCode!);
  await exportFloor(db, merchantId!, watched, ticketCode!);
}

/** A 3-hour live with SESSIONS playback sessions and its per-minute series. */
async function seriesFigures(
  db: Kysely<Database>,
  admin: (path: string, body: unknown) => Promise<Record<string, string>>,
  merchantId: string,
  call: (method: string, path: string) => Promise<Response>,
): Promise<void> {
  const { ticketCode } = await admin(`/admin/v1/merchants/${merchantId}/webinars`, { title: "Three hours" });
  const webinar = await db
    .selectFrom("webinars")
    .select("id")
    .where("ticket_code", "=", ticketCode!)
    .executeTakeFirstOrThrow();
  await sql`
    insert into playback_sessions (id, webinar_id, merchant_id, uid, anonymous_id, mode, watch_seconds, device_type,
      protocol, started_at, recorded_at, last_activity_at, ended_at, credited_ms)
    select 'bench-' || g, ${webinar.id}, ${merchantId}, null, 'anon-' || g, 'LIVE',
      ((g * 7919) % (10800 - (g * 104729) % 10800))::int, 'DESKTOP', 'HLS',
      timestamptz '2026-11-21T08:00:00Z' + ((g * 104729) % 10800) * interval '1 second', now(), now(), now(), 0
    from generate_series(1::bigint, ${SESSIONS}::bigint) g
  `.execute(db);
  await sql`analyze playback_sessions`.execute(db);
  const path = `/console/api/webinars/${ticketCode}/watch/concurrency?mode=LIVE`;
  const points = ((await (await call("GET", path)).json()) as { points: unknown[] }).points.length;
  const http = await timed(async () => (await call("GET", path)).arrayBuffer());
  const floor = await timed(() =>
    sql`select count(*) from playback_sessions where webinar_id = ${webinar.id} and mode = 'LIVE'`.execute(db),
  );
  print(
    `  concurrency series of a 3-hour live, ${SESSIONS} sessions, ${points} minutes: p50 ${ms(http.p50)} p95 ${ms(http.p95)}  (goal < 300 ms)`,
  );
  print(`    floor, counting the sessions in process: p50 ${ms(floor.p50)} p95 ${ms(floor.p95)}`);
}

/**
 * Streams the CSV of every record to a client in a process of its own (bench/console/download-csv.mjs), three
 * times, sampling the server process's resident memory meanwhile. The first export finds the server as the page and
 * series figures left it; the others show whether what the first grew stays grown or keeps growing (memory that
 * does not depend on the number of records levels off).
 */
async function exportFigures(server: RunningProcess, cookie: string, ticketCode: string) {
  const resident = () => processResidentBytes(server.pid) ?? Number.NaN;
  const mib = (value: number) => `${(value / 1048576).toFixed(0)} MiB`;
  const mb = (value: number) => `${(value / 1e6).toFixed(0)} MB`;
  const exportUrl = `${server.url}/console/api/webinars/${ticketCode}/watch/viewers.csv?mode=LIVE`;
  const start = resident();
  let overall = start;
  for (const run of ["", "again, ", "a third time, "]) {
    const before = resident();
    let peak = before;
    const sampler = setInterval(() => {
      peak = Math.max(peak, resident());
    }, 50);
    const download = await new Promise<{ lines: number; bytes: number; seconds: number }>((resolve, reject) => {
      execFile(process.execPath, [DOWNLOAD_CSV, exportUrl, cookie], { maxBuffer: 1 << 20 }, (error, stdout) =>
        error === null ? resolve(JSON.parse(stdout)) : reject(error),
      );
    });
    clearInterval(sampler);
    const rows = download.lines - 1;
    print(
      `  CSV export, ${run}of ${rows} records (${mib(download.bytes)}): ${(rows / download.seconds).toFixed(0)} rows/s in ${download.seconds.toFixed(1)} s  (goal >= 50000 rows/s)`,
    );
    print(
      `    resident memory of the server's process: ${mib(before)} before, peak ${mib(peak)}, growth ${mib(peak - before)} = ${mb(peak - before)}  (goal < 100 MB)`,
    );
    overall = Math.max(overall, peak);
  }
  print(
    `    over the three exports: ${mib(start)} before the first, peak ${mib(overall)}, growth ${mib(overall - start)} = ${mb(overall - start)}`,
  );
}

/**
 * The export's floor: the same records read in process in the export's pages (its query and its records), without
 * the CSV text, HTTP or a client: the most an export can reach on this machine.
 */
async function exportFloor(
  db: Kysely<Database>,
  merchantId: string,
  webinar: WatchedWebinar,
  ticketCode: string,
): Promise<void> {
  const started = performance.now();
  const records = streamViewerRecords(db, merchantId, webinar, { ticketCode, playbackMode: "LIVE" }, EXPORT_CHUNK_SIZE);
  let rows = 0;
  for (let chunk = await records.read(); chunk !== undefined; chunk = await records.read()) rows += chunk.length;
  const seconds = (performance.now() - started) / 1000;
  print(
    `    floor, the same ${rows} records read in process in the export's pages: ${(rows / seconds).toFixed(0)} rows/s`,
  );
}

main().catch((error: unknown) => {
  process.stderr.write(
    `console benchmark failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exitCode = 1;
});
