/**
 * Watch-data query times at scale (`pnpm bench:watch` from the root, or `pnpm --filter @org/webinar-server
 * bench:watch`). Not a test: it prints figures and asserts nothing.
 *
 * For each storage and N it bulk-loads N registered viewers (one LIVE session each, every fourth also a REPLAY
 * session: test/support/bulk-seed.ts, one INSERT … SELECT generate_series per 50k viewers) into a fresh database,
 * then measures, in process (the query functions the server runs, without HTTP and signing):
 * - p50 of a 100-item detail page at the first page and at a deep page (90 % through), per sort and mode, and the
 *   deep/first ratio;
 * - p50 of the overview;
 * - EXPLAIN (ANALYZE) of each page query: the index used, and whether it has a Sort node or an OFFSET.
 * Targets on PostgreSQL at 1M viewers: detail page <= 5 ms, deep/first <= 2, overview <= 5 ms and flat in N.
 *
 * Options (environment or flags):
 *   BENCH_WATCH_N=10000,100000     sizes (default 10k and 100k)
 *   --million / BENCH_WATCH_MILLION=1   also 1M on PostgreSQL (seeding takes minutes)
 *   BENCH_WATCH_STORAGE=postgres,pglite   storages (PGlite runs only N <= 100k)
 *   BENCH_WATCH_REPS=30            timed repetitions per figure
 */
import { randomBytes } from "node:crypto";
import { CompiledQuery, type Kysely } from "kysely";
import type { PlaybackMode, QueryViewerWatchRequest, Sort } from "@org/webinar-types";
import { connectDatabase, type DatabaseHandle } from "../src/db/connect";
import type { Database } from "../src/db/schema";
import { bulkSeedWatchData } from "../test/support/bulk-seed";
import type { CursorPosition } from "../src/watch-data/cursor";
import { readOverview } from "../src/watch-data/overview";
import { readViewerPage, viewerPageQuery } from "../src/watch-data/viewer-query";
import type { WatchedWebinar } from "../src/watch-data/webinar-state";
import { createBenchDatabase } from "./bench-database";

const REPS = Number(process.env.BENCH_WATCH_REPS ?? 30);
const SIZES = (process.env.BENCH_WATCH_N ?? "10000,100000").split(",").map(Number);
const MILLION = process.argv.includes("--million") || process.env.BENCH_WATCH_MILLION === "1";
const STORAGES = (process.env.BENCH_WATCH_STORAGE ?? "postgres,pglite").split(",");
const SORTS: Sort[] = ["WATCH_SECONDS_DESC", "LAST_WATCHED_DESC", "FIRST_WATCHED_ASC"];
const MODES: PlaybackMode[] = ["ALL", "LIVE", "REPLAY"];
const COLUMN: Record<Sort, string> = {
  WATCH_SECONDS_DESC: "total_seconds",
  LAST_WATCHED_DESC: "last_watched_at",
  FIRST_WATCHED_ASC: "first_watched_at",
};
const cursorKey = randomBytes(32);

async function p50(run: () => Promise<unknown>): Promise<number> {
  for (let i = 0; i < 3; i += 1) await run();
  const times: number[] = [];
  for (let i = 0; i < REPS; i += 1) {
    const started = performance.now();
    await run();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

/** The sort position of the row `fraction` of the way through the scope's order (setup only: OFFSET is fine here). */
async function deepPosition(
  db: Kysely<Database>,
  webinarId: string,
  mode: PlaybackMode,
  sort: Sort,
  rows: number,
): Promise<CursorPosition> {
  const column = COLUMN[sort];
  const direction = sort === "FIRST_WATCHED_ASC" ? "asc" : "desc";
  const value = column === "total_seconds" ? `${column}::float8` : `(extract(epoch from ${column}) * 1000)::float8`;
  const result = await db.executeQuery<{ v: number; uid: number }>(
    CompiledQuery.raw(
      `select ${value} as v, uid from watch_subject_totals where webinar_id = $1 and scope = $2 and uid is not null order by ${column} ${direction}, uid asc offset $3 limit 1`,
      [webinarId, mode, Math.floor(rows * 0.9)],
    ),
  );
  const row = result.rows[0]!;
  return { value: Number(row.v), uid: row.uid };
}

async function explain(
  db: Kysely<Database>,
  merchantId: string,
  webinarId: string,
  request: QueryViewerWatchRequest,
  after: CursorPosition | undefined,
): Promise<string> {
  const compiled = viewerPageQuery(db, merchantId, webinarId, request, after).compile();
  const result = await db.executeQuery<{ "QUERY PLAN": string }>(
    CompiledQuery.raw(`explain (analyze, costs off, timing off, summary off) ${compiled.sql}`, [
      ...compiled.parameters,
    ]),
  );
  const lines = result.rows.map((row) => row["QUERY PLAN"]);
  const index = lines
    .map((line) => /Index (?:Only )?Scan(?: Backward)? using (\S+)/.exec(line)?.[1])
    .find((name) => name?.startsWith("watch_subject_totals"));
  const sortNode = lines.some((line) => /^\s*(->\s*)?(Incremental )?Sort\b/.test(line));
  const offset = /\boffset\b/i.test(compiled.sql);
  return `${index ?? "NO INDEX SCAN on watch_subject_totals"}${sortNode ? " + SORT NODE" : ", no Sort"}${offset ? " + OFFSET" : ", no OFFSET"}`;
}

async function benchOne(storage: string, handle: DatabaseHandle, n: number): Promise<void> {
  const { db } = handle;
  const merchantId = `mch_bench_${n}`;
  const webinarId = `wbn_bench_${n}`;
  await db
    .insertInto("merchants")
    .values({ id: merchantId, name: "bench", watch_origin: null, status: "ACTIVE", created_at: new Date() })
    .execute();
  await db
    .insertInto("webinars")
    .values({
      id: webinarId,
      merchant_id: merchantId,
      ticket_code: `BENCH${n}`,
      title: null,
      status: "PUBLISHED",
      live_status: "NOT_STARTED",
      live_started_at: null,
      live_ended_at: null,
      live_finalized_at: null,
      created_at: new Date(),
    })
    .execute();
  const seedStarted = performance.now();
  await bulkSeedWatchData(db, { merchantId, webinarId, count: n });
  const seedSeconds = (performance.now() - seedStarted) / 1000;
  const webinar: WatchedWebinar = {
    id: webinarId,
    liveStatus: "NOT_STARTED",
    liveStartedAt: null,
    liveFinalizedAt: null,
  };
  console.log(
    `\n${storage}, N = ${n.toLocaleString("en")} viewers (${Math.round(n * 1.25).toLocaleString("en")} sessions), seeded in ${seedSeconds.toFixed(1)} s`,
  );
  const overviewMs = await p50(() => readOverview(db, webinar, `BENCH${n}`, "ALL"));
  console.log(`  overview ALL p50 ${overviewMs.toFixed(2)} ms`);
  console.log(
    `  ${"mode".padEnd(7)} ${"sort".padEnd(19)} ${"first ms".padStart(9)} ${"deep ms".padStart(9)} ${"deep/first".padStart(10)}  plan (first | deep)`,
  );
  for (const mode of MODES) {
    const rows = mode === "REPLAY" ? Math.ceil(n / 4) : n;
    for (const sort of SORTS) {
      const request: QueryViewerWatchRequest = { ticketCode: `BENCH${n}`, playbackMode: mode, sort, pageSize: 100 };
      const deep = await deepPosition(db, webinarId, mode, sort, rows);
      const first = await p50(() => readViewerPage(db, merchantId, webinar, request, undefined, cursorKey));
      const deepMs = await p50(() => readViewerPage(db, merchantId, webinar, request, deep, cursorKey));
      const plans = `${await explain(db, merchantId, webinarId, request, undefined)} | ${await explain(db, merchantId, webinarId, request, deep)}`;
      console.log(
        `  ${mode.padEnd(7)} ${sort.padEnd(19)} ${first.toFixed(2).padStart(9)} ${deepMs.toFixed(2).padStart(9)} ${(deepMs / first).toFixed(2).padStart(10)}  ${plans}`,
      );
    }
  }
  if (process.env.BENCH_WATCH_PLAN === "1") {
    const compiled = viewerPageQuery(
      db,
      merchantId,
      webinarId,
      { ticketCode: "x", playbackMode: "ALL", sort: "WATCH_SECONDS_DESC", pageSize: 100 },
      await deepPosition(db, webinarId, "ALL", "WATCH_SECONDS_DESC", n),
    ).compile();
    const result = await db.executeQuery<{ "QUERY PLAN": string }>(
      CompiledQuery.raw(`explain (analyze, buffers) ${compiled.sql}`, [...compiled.parameters]),
    );
    console.log(result.rows.map((row) => `    ${row["QUERY PLAN"]}`).join("\n"));
  }
}

async function main(): Promise<void> {
  console.log(`Watch-data queries at scale (p50 of ${REPS} runs, in process, 100-item pages)`);
  const timeouts = { connectTimeoutMs: 5000, statementTimeoutMs: 600_000, poolMax: 4 };
  if (STORAGES.includes("postgres")) {
    for (const n of MILLION ? [...SIZES, 1_000_000] : SIZES) {
      const database = await createBenchDatabase("watch");
      const handle = await connectDatabase({ kind: "postgres", databaseUrl: database.url }, timeouts);
      try {
        await benchOne("PostgreSQL", handle, n);
      } finally {
        await handle.close();
        await database.drop();
      }
    }
  }
  if (STORAGES.includes("pglite")) {
    for (const n of SIZES.filter((size) => size <= 100_000)) {
      const handle = await connectDatabase({ kind: "pglite", dataDir: "memory:" }, timeouts);
      try {
        await benchOne("PGlite", handle, n);
      } finally {
        await handle.close();
      }
    }
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
