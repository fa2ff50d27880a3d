/**
 * A webinar's watch data for the console. The overview and the viewers table are the Open API's own operations
 * (watch-data/reads.ts: the same numbers, refusals and cursors); the charts are computed in SQL from the
 * playback sessions (per-minute concurrency, devices and protocols) and from the per-subject totals the detail
 * query reads (watch-time distribution). Every read is scoped to the signed-in person's merchant: another
 * merchant's webinar is 404 WEBINAR_NOT_FOUND.
 */
import { sql } from "kysely";
import { parseAndValidate } from "@org/webinar-validator";
import type { operations } from "@org/webinar-console-contract";
import type { PlaybackMode } from "@org/webinar-types";
import { dependencyStep } from "../dependency";
import { ServiceError } from "../errors";
import { readViewerWatch, readWatchOverview, requireWebinar } from "../watch-data/reads";
import type { AnswerBody } from "../http/typed-answer";
import type { AppServices } from "../services";
import type { ConsolePerson } from "./context";
import { recordsFor } from "./masked-records";

export { exportViewers } from "./export-viewers";

/** The 200 answer's body of a watch-data operation. */
type Json<Id extends keyof operations> = AnswerBody<operations[Id], 200>;

const UNAVAILABLE = "watch data is temporarily unavailable";

export async function getWatchOverview(
  services: AppServices,
  person: ConsolePerson,
  ticketCode: string,
  mode: PlaybackMode,
): Promise<Json<"getWatchOverview">> {
  return readWatchOverview(services, person.merchantId, { ticketCode, playbackMode: mode });
}

/** The playback sessions of a mode (`ALL`: both). */
const modeFilter = (mode: PlaybackMode) => (mode === "ALL" ? sql`true` : sql`p.mode = ${mode}`);

/** At most this many minutes are answered: the last ones of a longer range (14 days). */
const MAX_MINUTES = 14 * 24 * 60;

/**
 * Per minute, the sessions playing at some moment of it: each session adds one at the minute it starts and takes
 * it away after the minute it ends (start + watch seconds), and a running sum over the range's minutes counts them,
 * so the work grows with the sessions plus the minutes, not their product. The sessions are read once: one scan
 * counts them by start minute and by end minute together (grouping sets), and everything after works on those
 * few hundred counts (EXPLAIN ANALYZE: reading the sessions three times through a materialized list cost 60 %
 * more). Minutes are whole numbers since the epoch, computed in float8 (`extract` answers numeric, whose arithmetic
 * cost three times as much per session); a range cut to its last 14 days starts from the sessions still playing
 * at its first minute.
 */
export async function getConcurrencySeries(
  services: AppServices,
  person: ConsolePerson,
  ticketCode: string,
  mode: PlaybackMode,
): Promise<Json<"getConcurrencySeries">> {
  const webinar = await requireWebinar(services, person.merchantId, ticketCode);
  const result = await dependencyStep("WATCH_DATA_UNAVAILABLE", UNAVAILABLE, () =>
    sql<{ minute: string; viewers: number }>`
      with counts as (
        select grouping(m.first_minute) as ends, m.first_minute, m.last_minute, count(*)::int as sessions
        from playback_sessions p
        cross join lateral (
          select floor(date_part('epoch', p.started_at) / 60)::bigint as first_minute,
                 floor((date_part('epoch', p.started_at) + greatest(p.watch_seconds::float8 - 0.001, 0)) / 60)::bigint
                   as last_minute
        ) m
        where p.webinar_id = ${webinar.id} and ${modeFilter(mode)}
        group by grouping sets ((m.first_minute), (m.last_minute))
      ),
      deltas as (
        select case when ends = 0 then first_minute else last_minute + 1 end as minute,
               sum(case when ends = 0 then sessions else -sessions end) as delta
        from counts
        group by 1
      ),
      -- Every session starts before the minute after its end, so the deltas' first minute is the range's first and
      -- their last minute is the one after the range's last.
      bounds as (select min(minute) as lo, max(minute) - 1 as hi from deltas),
      series as (
        select m.minute, sum(coalesce(d.delta, 0)) over (order by m.minute) as viewers
        from bounds
        cross join generate_series(greatest(bounds.lo, bounds.hi - ${MAX_MINUTES - 1}), bounds.hi) as m(minute)
        left join deltas d on d.minute = m.minute
        where bounds.lo is not null
      ),
      before_range as (
        select coalesce(sum(d.delta), 0) as viewers
        from deltas d, bounds
        where d.minute < greatest(bounds.lo, bounds.hi - ${MAX_MINUTES - 1})
      )
      select (series.minute * 60)::text as minute, (series.viewers + before_range.viewers)::int as viewers
      from series, before_range
      order by series.minute
    `.execute(services.db),
  );
  return {
    ticketCode,
    mode,
    points: result.rows.map((row) => ({
      minute: new Date(Number(row.minute) * 1000).toISOString().replace(".000Z", "Z"),
      viewers: Number(row.viewers),
    })),
  };
}

/** Upper bounds (exclusive) of the distribution's buckets, in seconds; the last bucket has none. */
const BUCKET_BOUNDS = [60, 300, 900, 1800, 3600, 7200] as const;

export async function getWatchTimeDistribution(
  services: AppServices,
  person: ConsolePerson,
  ticketCode: string,
  mode: PlaybackMode,
): Promise<Json<"getWatchTimeDistribution">> {
  const webinar = await requireWebinar(services, person.merchantId, ticketCode);
  const bounds = sql.raw(`array[${BUCKET_BOUNDS.join(",")}]::float8[]`);
  const result = await dependencyStep("WATCH_DATA_UNAVAILABLE", UNAVAILABLE, () =>
    sql<{ bucket: number; subjects: number }>`
      select width_bucket(t.total_seconds::float8, ${bounds}) as bucket, count(*)::int as subjects
      from watch_subject_totals t
      where t.webinar_id = ${webinar.id} and t.scope = ${mode}
      group by 1
    `.execute(services.db),
  );
  const counts = new Map(result.rows.map((row) => [Number(row.bucket), Number(row.subjects)]));
  return {
    ticketCode,
    mode,
    buckets: [0, ...BUCKET_BOUNDS].map((minSeconds, index) => ({
      minSeconds,
      maxSeconds: BUCKET_BOUNDS[index] ?? null,
      subjects: counts.get(index) ?? 0,
    })),
  };
}

export async function getDeviceBreakdown(
  services: AppServices,
  person: ConsolePerson,
  ticketCode: string,
  mode: PlaybackMode,
): Promise<Json<"getDeviceBreakdown">> {
  const webinar = await requireWebinar(services, person.merchantId, ticketCode);
  const breakdown = (column: ReturnType<typeof sql.raw>) =>
    dependencyStep("WATCH_DATA_UNAVAILABLE", UNAVAILABLE, () =>
      sql<{ name: string; sessions: number; watch_seconds: number }>`
        select coalesce(${column}, 'UNKNOWN') as name, count(*)::int as sessions,
               coalesce(sum(p.watch_seconds), 0)::float8 as watch_seconds
        from playback_sessions p
        where p.webinar_id = ${webinar.id} and ${modeFilter(mode)}
        group by 1
        order by 2 desc, 1
      `.execute(services.db),
    );
  const [devices, protocols] = await Promise.all([
    breakdown(sql.raw("p.device_type")),
    breakdown(sql.raw("p.protocol")),
  ]);
  const entries = (rows: { name: string; sessions: number; watch_seconds: number }[]) =>
    rows.map((row) => ({ name: row.name, sessions: Number(row.sessions), watchSeconds: Number(row.watch_seconds) }));
  return { ticketCode, mode, deviceTypes: entries(devices.rows), protocols: entries(protocols.rows) };
}

type QueryBody = operations["queryViewers"]["requestBody"]["content"]["application/json"];

/**
 * The Open API's detail query for this webinar: the body is translated into the Open API's and checked by the
 * Open API's own request validation, so its rules and codes (WATCH_REQUEST_INVALID) are the same here.
 */
export async function queryViewers(
  services: AppServices,
  person: ConsolePerson,
  ticketCode: string,
  body: QueryBody,
): Promise<Json<"queryViewers">> {
  const { mode, ...rest } = body;
  const parsed = parseAndValidate("queryViewerWatch", JSON.stringify({ ticketCode, playbackMode: mode, ...rest }));
  if (!parsed.ok) throw new ServiceError(parsed.error.code, parsed.error.message, parsed.error.details);
  const page = await readViewerWatch(services, person.merchantId, parsed.value, services.cursorKey);
  return { ...page, items: recordsFor(person.role, page.items) };
}
