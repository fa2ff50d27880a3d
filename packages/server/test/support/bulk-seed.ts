/**
 * Bulk seeding of watch data for tests and the benchmark: N registered viewers of a
 * merchant, each with one finished LIVE session and every fourth also a REPLAY session, written with one
 * `INSERT … SELECT … generate_series` statement per chunk (data-modifying CTEs: viewers, sessions and per-subject
 * totals together), then the webinar's registered counts recomputed from the subject totals. The same facts the
 * admin import would record, without N HTTP calls. Values are deterministic functions of the viewer's index with
 * many ties (seconds in 0..3599, start times within one day), so the sort tie-breakers are exercised.
 *
 * Viewer i: uid = uidBase + i, externalUserId = `${externalPrefix}${i}`,
 * LIVE  seconds (i * 7919) % 3600 starting t0 + (i * 104729) % 86400 s, device DESKTOP/MOBILE/TABLET by i % 3,
 *       protocol WEBRTC/HLS by i % 2;
 * REPLAY (i % 4 = 0) seconds (i * 31) % 900 starting t0 + 2 days + (i * 15485863) % 86400 s.
 */
import { sql, type Kysely } from "kysely";
import type { Database } from "../../src/db/schema";

export interface BulkSeedOptions {
  merchantId: string;
  webinarId: string;
  count: number;
  /** First uid (default 1_000_000); the merchant must have no viewer in [uidBase, uidBase + count). */
  uidBase?: number;
  externalPrefix?: string;
  /** Time origin (default 2026-11-21T08:00:00Z). */
  t0?: Date;
  chunkSize?: number;
}

export interface SeededViewer {
  uid: number;
  externalUserId: string;
  liveSeconds: number;
  replaySeconds: number;
  firstWatchedAt: number;
  lastWatchedAt: number;
}

/** What the seed writes for viewer `i` (the tests' expected values). */
export function seededViewer(
  i: number,
  options: Pick<BulkSeedOptions, "uidBase" | "externalPrefix" | "t0"> = {},
): SeededViewer {
  const t0 = (options.t0 ?? DEFAULT_T0).getTime();
  const liveSeconds = (i * 7919) % 3600;
  const liveAt = t0 + ((i * 104729) % 86400) * 1000;
  const replaySeconds = i % 4 === 0 ? (i * 31) % 900 : 0;
  const replayAt = t0 + 2 * 86_400_000 + ((i * 15485863) % 86400) * 1000;
  return {
    uid: (options.uidBase ?? 1_000_000) + i,
    externalUserId: `${options.externalPrefix ?? "bulk-"}${i}`,
    liveSeconds,
    replaySeconds,
    firstWatchedAt: liveAt,
    lastWatchedAt: i % 4 === 0 ? replayAt + replaySeconds * 1000 : liveAt + liveSeconds * 1000,
  };
}

const DEFAULT_T0 = new Date("2026-11-21T08:00:00Z");

export async function bulkSeedWatchData(db: Kysely<Database>, options: BulkSeedOptions): Promise<void> {
  const uidBase = options.uidBase ?? 1_000_000;
  const prefix = options.externalPrefix ?? "bulk-";
  const t0 = (options.t0 ?? DEFAULT_T0).toISOString();
  const chunk = options.chunkSize ?? 50_000;
  const { merchantId: m, webinarId: w } = options;
  for (let lo = 0; lo < options.count; lo += chunk) {
    const hi = Math.min(options.count, lo + chunk) - 1;
    await sql`
      with s as (
        select g, ${uidBase}::int + g as uid,
          ((g::bigint * 7919) % 3600)::int as live_s,
          case when g % 4 = 0 then ((g::bigint * 31) % 900)::int end as replay_s,
          ${t0}::timestamptz + ((g::bigint * 104729) % 86400) * interval '1 second' as live_at,
          ${t0}::timestamptz + interval '2 days' + ((g::bigint * 15485863) % 86400) * interval '1 second' as replay_at,
          (array['DESKTOP', 'MOBILE', 'TABLET'])[1 + g % 3] as device,
          (array['WEBRTC', 'HLS'])[1 + g % 2] as protocol
        from generate_series(${lo}::int, ${hi}::int) g
      ),
      v as (
        insert into viewers (merchant_id, uid, external_user_id, created_at, updated_at)
        select ${m}, uid, ${prefix} || g, now(), now() from s
      ),
      p as (
        insert into playback_sessions (id, webinar_id, merchant_id, uid, mode, watch_seconds, device_type, protocol, started_at, recorded_at, last_activity_at, ended_at, credited_ms)
        select ${w} || ':L' || g, ${w}, ${m}, uid, 'LIVE', live_s, device, protocol, live_at, now(),
          live_at + live_s * interval '1 second', live_at + live_s * interval '1 second', live_s::bigint * 1000 from s
        union all
        select ${w} || ':R' || g, ${w}, ${m}, uid, 'REPLAY', replay_s, device, protocol, replay_at, now(),
          replay_at + replay_s * interval '1 second', replay_at + replay_s * interval '1 second', replay_s::bigint * 1000 from s where replay_s is not null
      )
      insert into watch_subject_totals (webinar_id, scope, subject_key, uid, live_seconds, replay_seconds, total_seconds, session_count,
        first_watched_at, last_watched_at, device_types, protocols)
      select ${w}, 'LIVE', 'u:' || uid, uid, live_s, 0, live_s, 1, live_at, live_at + live_s * interval '1 second', array[device], array[protocol] from s
      union all
      select ${w}, 'REPLAY', 'u:' || uid, uid, 0, replay_s, replay_s, 1, replay_at, replay_at + replay_s * interval '1 second', array[device], array[protocol]
        from s where replay_s is not null
      union all
      select ${w}, 'ALL', 'u:' || uid, uid, live_s, coalesce(replay_s, 0), live_s + coalesce(replay_s, 0), case when replay_s is null then 1 else 2 end,
        live_at, case when replay_s is null then live_at + live_s * interval '1 second' else replay_at + replay_s * interval '1 second' end,
        array[device], array[protocol] from s
    `.execute(db);
  }
  // The webinar's registered counts, recomputed from its subject totals (seeding only; queries never scan).
  await sql`delete from watch_totals where webinar_id = ${w} and kind = 'REGISTERED'`.execute(db);
  await sql`
    insert into watch_totals (webinar_id, scope, kind, viewer_count, session_count, watch_seconds, updated_at)
    select ${w}, scope, 'REGISTERED', count(*), sum(session_count), sum(total_seconds), now()
    from watch_subject_totals where webinar_id = ${w} and uid is not null group by scope
  `.execute(db);
  await sql`analyze watch_subject_totals`.execute(db);
  await sql`analyze viewers`.execute(db);
}
