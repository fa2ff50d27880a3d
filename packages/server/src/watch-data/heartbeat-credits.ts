/**
 * The statements of one group commit of heartbeat credits (watch/heartbeat-batch.ts decides what they write). Every
 * transaction that writes these rows takes its row locks in one global order, so concurrent batches, in one process
 * or several, and the playback starts and imports of record-session.ts never deadlock:
 *
 * 1. playback sessions, by id (the finalizer closes sessions in the same order);
 * 2. subject totals rows, by webinar and subject, a subject's mode row before its ALL row (as recordPlaybackSession);
 * 3. webinar totals rows, by webinar, the mode rows before the ALL rows (as recordPlaybackSession).
 *
 * A batch locks all three and reads what it needs with one statement, and writes everything with a second; both
 * are prepared (their texts never change: the batch's values go in arrays).
 */
import { sql, type Transaction } from "kysely";
import { runPrepared } from "../db/prepared-statements";
import type { Database, LiveStatus, PlaybackMode, WatchScope } from "../db/schema";
import { subjectKeyOf } from "./record-session";

/** A playback session locked for crediting, with the live columns of its webinar read in the same statement. */
export interface LockedPlaybackSession {
  id: string;
  webinarId: string;
  uid: number | null;
  anonymousId: string | null;
  mode: PlaybackMode;
  lastActivityAt: number;
  ended: boolean;
  creditedMs: number;
  live: {
    live_status: LiveStatus;
    live_started_at: Date | null;
    live_ended_at: Date | null;
    live_finalized_at: Date | null;
  };
}

/** A row of `watch_subject_totals` by its key. */
export interface SubjectRowKey {
  webinarId: string;
  scope: WatchScope;
  subjectKey: string;
}

/** What a batch adds to one session. */
export interface SessionCredit {
  id: string;
  lastActivityAt: number;
  creditedMs: number;
  endedAt: number | null;
}

/** What a batch adds to one subject totals row; `creditedUntil` and `lastWatchedAt` only ever move forward. */
export interface SubjectCredit extends SubjectRowKey {
  creditedUntil: number | null;
  liveSeconds: number;
  replaySeconds: number;
  lastWatchedAt: number | null;
}

/** What a batch adds to one webinar totals row. */
export interface TotalsCredit {
  webinarId: string;
  scope: WatchScope;
  kind: "REGISTERED" | "ANONYMOUS";
  seconds: number;
  updatedAt: number;
}

export interface BatchCredits {
  sessions: SessionCredit[];
  subjects: SubjectCredit[];
  totals: TotalsCredit[];
}

/** A map key of a subject totals row. */
export function subjectRowId(row: SubjectRowKey): string {
  return `${row.webinarId}\n${row.scope}\n${row.subjectKey}`;
}

interface LockedRow {
  id: string;
  webinar_id: string;
  uid: number | null;
  anonymous_id: string | null;
  mode: PlaybackMode;
  last_activity_at: Date;
  ended_at: Date | null;
  credited_ms: number;
  live_status: LiveStatus;
  live_started_at: Date | null;
  live_ended_at: Date | null;
  live_finalized_at: Date | null;
  /** The `credited_until` of the subject's row of the session's mode. */
  credited_until: Date | null;
}

/**
 * Locks, in the global order, the sessions of `ids`, then the subject totals rows of the open ones (their mode's and
 * ALL), then the webinar totals rows those subjects' credits may change; returns the sessions with their webinars'
 * live columns, and how far each subject was credited in the session's mode (epoch milliseconds, -Infinity when
 * never) by {@link subjectRowId}.
 */
export async function lockBatchRows(
  trx: Transaction<Database>,
  ids: readonly string[],
): Promise<{ sessions: Map<string, LockedPlaybackSession>; watermarks: Map<string, number> }> {
  // Raw SQL: the builder has no words for locking CTEs chained through aggregates. An aggregate reads all of its
  // input before it answers, so every session is locked before the first subject row, and every subject row
  // before the first webinar totals row, whatever plan the database picks. The count in the last line makes the
  // database run the totals CTE, which no other part of the statement reads.
  const { rows } = await runPrepared(
    trx,
    sql<LockedRow>`
    with sessions as (
      select s.id, s.webinar_id, s.uid, s.anonymous_id, s.mode, s.last_activity_at, s.ended_at,
        s.credited_ms::float8 as credited_ms, coalesce('u:' || s.uid, 'a:' || s.anonymous_id) as subject_key,
        w.live_status, w.live_started_at, w.live_ended_at, w.live_finalized_at
      from playback_sessions as s
      join webinars as w on w.id = s.webinar_id
      where s.id = any(${ids}::text[])
      order by s.id
      for update of s
    ), open_sessions as (
      select array_agg(webinar_id) as webinar_ids, array_agg(subject_key) as subject_keys, array_agg(mode) as modes
      from sessions
      where ended_at is null
    ), subjects as (
      select t.webinar_id, t.scope, t.subject_key, t.credited_until
      from (
        select distinct k.webinar_id, k.subject_key, scope
        from open_sessions, unnest(webinar_ids, subject_keys, modes) as k(webinar_id, subject_key, mode),
          unnest(array[k.mode, 'ALL']) as scope
      ) as k
      join watch_subject_totals as t
        on t.webinar_id = k.webinar_id and t.scope = k.scope and t.subject_key = k.subject_key
      order by t.webinar_id, t.subject_key, t.scope = 'ALL', t.scope
      for update of t
    ), credited_subjects as (
      select array_agg(webinar_id) as webinar_ids, array_agg(scope) as scopes,
        array_agg(case when subject_key like 'u:%' then 'REGISTERED' else 'ANONYMOUS' end) as kinds
      from subjects
    ), totals as (
      select t.webinar_id
      from (
        select distinct k.webinar_id, k.scope, k.kind
        from credited_subjects, unnest(webinar_ids, scopes, kinds) as k(webinar_id, scope, kind)
      ) as k
      join watch_totals as t on t.webinar_id = k.webinar_id and t.scope = k.scope and t.kind = k.kind
      order by t.webinar_id, t.scope = 'ALL', t.scope, t.kind
      for update of t
    )
    select s.id, s.webinar_id, s.uid, s.anonymous_id, s.mode, s.last_activity_at, s.ended_at, s.credited_ms,
      s.live_status, s.live_started_at, s.live_ended_at, s.live_finalized_at, t.credited_until
    from sessions as s
    left join subjects as t on t.webinar_id = s.webinar_id and t.scope = s.mode and t.subject_key = s.subject_key
    where (select count(*) from totals) >= 0
  `,
  );
  const sessions = new Map<string, LockedPlaybackSession>();
  const watermarks = new Map<string, number>();
  for (const row of rows) {
    const session: LockedPlaybackSession = {
      id: row.id,
      webinarId: row.webinar_id,
      uid: row.uid,
      anonymousId: row.anonymous_id,
      mode: row.mode,
      lastActivityAt: new Date(row.last_activity_at).getTime(),
      ended: row.ended_at !== null,
      creditedMs: Number(row.credited_ms),
      live: {
        live_status: row.live_status,
        live_started_at: row.live_started_at,
        live_ended_at: row.live_ended_at,
        live_finalized_at: row.live_finalized_at,
      },
    };
    sessions.set(session.id, session);
    if (row.credited_until !== null) {
      const key = { webinarId: session.webinarId, scope: session.mode, subjectKey: subjectKeyOf(session) };
      watermarks.set(subjectRowId(key), new Date(row.credited_until).getTime());
    }
  }
  return { sessions, watermarks };
}

const isoOrNull = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

/** Writes a batch's credits, on rows {@link lockBatchRows} locked: the sessions, the subject totals and the webinar totals. */
export async function writeBatchCredits(trx: Transaction<Database>, credits: BatchCredits): Promise<void> {
  const { sessions, subjects, totals } = credits;
  // Raw SQL: the builder has no words for an UPDATE ... FROM unnest(...) of parallel arrays, nor for
  // data-modifying CTEs over several tables, which is what lets one statement write the whole batch.
  await runPrepared(
    trx,
    sql`
    with session_rows as (
      update playback_sessions as s
      set last_activity_at = v.last_activity_at, credited_ms = v.credited_ms,
        watch_seconds = v.credited_ms / 1000, ended_at = v.ended_at
      from unnest(
        ${sessions.map((row) => row.id)}::text[],
        ${sessions.map((row) => new Date(row.lastActivityAt).toISOString())}::timestamptz[],
        ${sessions.map((row) => row.creditedMs)}::bigint[],
        ${sessions.map((row) => isoOrNull(row.endedAt))}::timestamptz[]
      ) as v(id, last_activity_at, credited_ms, ended_at)
      where s.id = v.id
    ), subject_rows as (
      update watch_subject_totals as t
      set credited_until = greatest(t.credited_until, v.credited_until),
        live_seconds = t.live_seconds + v.live_seconds,
        replay_seconds = t.replay_seconds + v.replay_seconds,
        total_seconds = t.total_seconds + v.live_seconds + v.replay_seconds,
        last_watched_at = greatest(t.last_watched_at, v.last_watched_at)
      from unnest(
        ${subjects.map((row) => row.webinarId)}::text[],
        ${subjects.map((row) => row.scope)}::text[],
        ${subjects.map((row) => row.subjectKey)}::text[],
        ${subjects.map((row) => isoOrNull(row.creditedUntil))}::timestamptz[],
        ${subjects.map((row) => row.liveSeconds)}::bigint[],
        ${subjects.map((row) => row.replaySeconds)}::bigint[],
        ${subjects.map((row) => isoOrNull(row.lastWatchedAt))}::timestamptz[]
      ) as v(webinar_id, scope, subject_key, credited_until, live_seconds, replay_seconds, last_watched_at)
      where t.webinar_id = v.webinar_id and t.scope = v.scope and t.subject_key = v.subject_key
    )
    update watch_totals as w
    set watch_seconds = w.watch_seconds + v.seconds, updated_at = greatest(w.updated_at, v.updated_at)
    from unnest(
      ${totals.map((row) => row.webinarId)}::text[],
      ${totals.map((row) => row.scope)}::text[],
      ${totals.map((row) => row.kind)}::text[],
      ${totals.map((row) => row.seconds)}::bigint[],
      ${totals.map((row) => new Date(row.updatedAt).toISOString())}::timestamptz[]
    ) as v(webinar_id, scope, kind, seconds, updated_at)
    where w.webinar_id = v.webinar_id and w.scope = v.scope and w.kind = v.kind
  `,
  );
}
