/**
 * What the database holds and how the process uses it, read when Prometheus scrapes (never kept up to date on the
 * request path): whether the database answers, the viewers watching now by their webinar's live status and mode,
 * and the PostgreSQL pool's connections. The viewer counts cover the whole database, so every process reports the
 * same figures (aggregate them with `max`, not `sum`).
 */
import { type Kysely, sql } from "kysely";
import { Gauge, type Registry } from "prom-client";
import type { Database } from "../db/schema";
import type { Runtime } from "../runtime";
import { HEARTBEAT_INTERVAL_SECONDS } from "../config";

/** A playback whose last heartbeat is this recent is watched now: the longest stretch one heartbeat credits. */
const WATCHING_WITHIN_MS = 2 * HEARTBEAT_INTERVAL_SECONDS * 1000;

/** A pg pool's counts; PGlite has no pool (one connection inside the process). */
export interface PoolCounts {
  readonly totalCount: number;
  readonly idleCount: number;
  readonly waitingCount: number;
  readonly options: { readonly max?: number | undefined };
}

export interface DatabaseSources {
  db: Kysely<Database>;
  runtime: Pick<Runtime, "now">;
  pool: PoolCounts | undefined;
}

async function watchingNow(sources: DatabaseSources) {
  return sources.db
    .selectFrom("playback_sessions as p")
    .innerJoin("webinars as w", "w.id", "p.webinar_id")
    .where("p.ended_at", "is", null)
    .where("p.last_activity_at", ">", new Date(sources.runtime.now() - WATCHING_WITHIN_MS))
    .groupBy(["w.live_status", "p.mode"])
    .select([
      "w.live_status as state",
      "p.mode as mode",
      // One viewer of a webinar counts once, however many tabs it plays in.
      sql<number>`count(distinct (p.webinar_id, p.uid, p.anonymous_id))::int`.as("viewers"),
    ])
    .execute();
}

/** Registers the gauges; `sources()` is read at each scrape (undefined until the server is built). */
export function databaseMetrics(registry: Registry, sources: () => DatabaseSources | undefined): void {
  new Gauge({
    name: "webinar_database_up",
    help: "1 when the database answered this scrape's trivial query, 0 when it did not.",
    registers: [registry],
    async collect() {
      const from = sources();
      if (from === undefined) return;
      // The smallest statement there is; the builder has no table-less select.
      const answered = await sql`select 1`.execute(from.db).then(
        () => true,
        () => false,
      );
      this.set(answered ? 1 : 0);
    },
  });
  new Gauge({
    name: "webinar_live_viewers",
    help: "Viewers watching now (a heartbeat in the last 30 s), by their webinar's live status and playback mode; the whole database's figure.",
    labelNames: ["state", "mode"] as const,
    registers: [registry],
    async collect() {
      const from = sources();
      if (from === undefined) return;
      // Not known while the database does not answer: no series rather than a false zero.
      const rows = await watchingNow(from).catch(() => []);
      this.reset();
      for (const row of rows) this.set({ state: row.state, mode: row.mode }, row.viewers);
    },
  });
  new Gauge({
    name: "webinar_db_pool_connections",
    help: "PostgreSQL connections of this process's pool by state (in_use, idle); absent on the embedded database.",
    labelNames: ["state"] as const,
    registers: [registry],
    collect() {
      const pool = sources()?.pool;
      if (pool === undefined) return;
      this.set({ state: "in_use" }, pool.totalCount - pool.idleCount);
      this.set({ state: "idle" }, pool.idleCount);
    },
  });
  new Gauge({
    name: "webinar_db_pool_waiting",
    help: "Requests of this process waiting for a pooled PostgreSQL connection.",
    registers: [registry],
    collect() {
      const pool = sources()?.pool;
      if (pool !== undefined) this.set(pool.waitingCount);
    },
  });
  new Gauge({
    name: "webinar_db_pool_max",
    help: "Most connections this process opens to the database (WEBINAR_DB_POOL_MAX; 1 for the embedded database).",
    registers: [registry],
    collect() {
      const from = sources();
      if (from !== undefined) this.set(from.pool === undefined ? 1 : (from.pool.options.max ?? 10));
    },
  });
}
