/**
 * Records one finished playback session and folds it into the incrementally maintained statistics, in one
 * transaction: the session row, then for its mode and for ALL the subject's totals and the webinar's counts
 * (a subject's first session in a scope adds one viewer there). Rows are always locked in the same order
 * (subject of the mode, counts of the mode, subject of ALL, counts of ALL), so concurrent imports cannot
 * deadlock, and the upserts' row locks make the counts exact.
 */
import type { Transaction } from "kysely";
import { statement } from "../db/compiled";
import type { Database, PlaybackMode } from "../db/schema";

export interface PlaybackSession {
  id: string;
  webinarId: string;
  merchantId: string;
  uid: number | null;
  anonymousId: string | null;
  mode: PlaybackMode;
  watchSeconds: number;
  deviceType: string;
  protocol: string | null;
  startedAt: Date;
  recordedAt: Date;
  /**
   * An open session of the watch-page playback API (credited later by heartbeats); absent: a finished session
   * (the admin import) whose last activity and end are `startedAt + watchSeconds`.
   */
  open?: boolean;
}

// $1 webinar, $2 scope, $3 subject key, $4 uid, $5 live s, $6 replay s, $7 first, $8 last, $9 devices, $10 protocols
const addToSubject = statement<{ inserted: boolean }>(`
  insert into watch_subject_totals as t
    (webinar_id, scope, subject_key, uid, live_seconds, replay_seconds, total_seconds, session_count,
     first_watched_at, last_watched_at, device_types, protocols)
  values ($1, $2, $3, $4, $5, $6, $5::bigint + $6::bigint, 1, $7, $8, $9::text[], $10::text[])
  on conflict (webinar_id, scope, subject_key) do update set
    live_seconds = t.live_seconds + excluded.live_seconds,
    replay_seconds = t.replay_seconds + excluded.replay_seconds,
    total_seconds = t.total_seconds + excluded.total_seconds,
    session_count = t.session_count + 1,
    first_watched_at = least(t.first_watched_at, excluded.first_watched_at),
    last_watched_at = greatest(t.last_watched_at, excluded.last_watched_at),
    device_types = array(select distinct d from unnest(t.device_types || excluded.device_types) d order by d),
    protocols = array(select distinct p from unnest(t.protocols || excluded.protocols) p order by p)
  returning (xmax = 0) as inserted
`);

// $1 webinar, $2 scope, $3 kind, $4 new viewers (0 or 1), $5 seconds, $6 time
const addToTotals = statement<never>(`
  insert into watch_totals as w (webinar_id, scope, kind, viewer_count, session_count, watch_seconds, updated_at)
  values ($1, $2, $3, $4, 1, $5, $6)
  on conflict (webinar_id, scope, kind) do update set
    viewer_count = w.viewer_count + excluded.viewer_count,
    session_count = w.session_count + 1,
    watch_seconds = w.watch_seconds + excluded.watch_seconds,
    updated_at = greatest(w.updated_at, excluded.updated_at)
`);

/** The key of a subject's totals rows: `u:<uid>` for a registered viewer, `a:<anonymousId>` for an anonymous one. */
function subjectKeyOf(session: { uid: number | null; anonymousId: string | null }): string {
  return session.uid !== null ? `u:${session.uid}` : `a:${session.anonymousId}`;
}

export async function recordPlaybackSession(trx: Transaction<Database>, session: PlaybackSession): Promise<void> {
  await trx
    .insertInto("playback_sessions")
    .values({
      id: session.id,
      webinar_id: session.webinarId,
      merchant_id: session.merchantId,
      uid: session.uid,
      anonymous_id: session.anonymousId,
      mode: session.mode,
      watch_seconds: session.watchSeconds,
      device_type: session.deviceType,
      protocol: session.protocol,
      started_at: session.startedAt,
      recorded_at: session.recordedAt,
      last_activity_at: session.open === true ? session.startedAt : new Date(session.startedAt.getTime() + session.watchSeconds * 1000),
      ended_at: session.open === true ? null : new Date(session.startedAt.getTime() + session.watchSeconds * 1000),
      credited_ms: session.watchSeconds * 1000,
    })
    .execute();
  const subjectKey = subjectKeyOf(session);
  const kind = session.uid !== null ? "REGISTERED" : "ANONYMOUS";
  const live = session.mode === "LIVE" ? session.watchSeconds : 0;
  const replay = session.mode === "REPLAY" ? session.watchSeconds : 0;
  const lastWatchedAt = new Date(session.startedAt.getTime() + session.watchSeconds * 1000);
  for (const scope of [session.mode, "ALL"] as const) {
    const [subject] = await addToSubject(trx, [
      session.webinarId,
      scope,
      subjectKey,
      session.uid,
      live,
      replay,
      session.startedAt,
      lastWatchedAt,
      [session.deviceType],
      session.protocol === null ? [] : [session.protocol],
    ]);
    await addToTotals(trx, [session.webinarId, scope, kind, subject?.inserted === true ? 1 : 0, session.watchSeconds, session.recordedAt]);
  }
}

// $1 webinar, $2 scope, $3 subject key, $4 live s, $5 replay s, $6 last watched
const creditSubject = statement<never>(`
  update watch_subject_totals set
    live_seconds = live_seconds + $4::bigint,
    replay_seconds = replay_seconds + $5::bigint,
    total_seconds = total_seconds + $4::bigint + $5::bigint,
    last_watched_at = greatest(last_watched_at, $6::timestamptz)
  where webinar_id = $1 and scope = $2 and subject_key = $3
`);

// $1 webinar, $2 scope, $3 kind, $4 seconds, $5 time
const creditTotals = statement<never>(`
  update watch_totals set watch_seconds = watch_seconds + $4::bigint, updated_at = greatest(updated_at, $5::timestamptz)
  where webinar_id = $1 and scope = $2 and kind = $3
`);

/**
 * Adds `seconds` effective seconds of an open session (already counted as a session and a viewer when it started)
 * to its subject's totals and the webinar's counts, for its mode and ALL; the same lock order as
 * recordPlaybackSession. `watchedUntil` moves the subject's lastWatchedAt.
 */
export async function creditPlaybackSeconds(
  trx: Transaction<Database>,
  session: { webinarId: string; uid: number | null; anonymousId: string | null; mode: PlaybackMode },
  seconds: number,
  watchedUntil: Date,
  now: Date,
): Promise<void> {
  const subjectKey = subjectKeyOf(session);
  const kind = session.uid !== null ? "REGISTERED" : "ANONYMOUS";
  const live = session.mode === "LIVE" ? seconds : 0;
  const replay = session.mode === "REPLAY" ? seconds : 0;
  for (const scope of [session.mode, "ALL"] as const) {
    await creditSubject(trx, [session.webinarId, scope, subjectKey, live, replay, watchedUntil]);
    await creditTotals(trx, [session.webinarId, scope, kind, seconds, now]);
  }
}

// $1 webinar, $2 scope (the session's mode), $3 subject key
const lockSubjectWatermark = statement<{ credited_until: Date | null }>(`
  select credited_until from watch_subject_totals where webinar_id = $1 and scope = $2 and subject_key = $3 for update
`);

// $1 webinar, $2 scope, $3 subject key, $4 new watermark
const moveSubjectWatermark = statement<never>(`
  update watch_subject_totals set credited_until = greatest(credited_until, $4::timestamptz)
  where webinar_id = $1 and scope = $2 and subject_key = $3
`);

/**
 * Claims the part of `segment` (epoch milliseconds) that no other session of the subject in this mode has been
 * credited for, and returns its length in milliseconds: one subject earns wall-clock time once, however many
 * tabs or devices play at the same time. Locks the subject's row of the mode first, the same first lock as
 * {@link recordPlaybackSession} and {@link creditPlaybackSeconds}, so heartbeats of one subject run one at a time.
 */
export async function claimSubjectTime(
  trx: Transaction<Database>,
  session: { webinarId: string; uid: number | null; anonymousId: string | null; mode: PlaybackMode },
  segment: { from: number; until: number },
): Promise<number> {
  const subjectKey = subjectKeyOf(session);
  const [row] = await lockSubjectWatermark(trx, [session.webinarId, session.mode, subjectKey]);
  const watermark = row?.credited_until == null ? -Infinity : new Date(row.credited_until).getTime();
  const from = Math.max(segment.from, watermark);
  if (segment.until <= from) return 0;
  await moveSubjectWatermark(trx, [session.webinarId, session.mode, subjectKey, new Date(segment.until)]);
  return segment.until - from;
}
