/**
 * The statements of one group commit of heartbeat credits (heartbeat-batch.ts decides what they write). Every
 * transaction that writes these rows takes its row locks in one global order, so concurrent batches, in one process
 * or several, and the playback starts and imports of record-session.ts never deadlock:
 *
 * 1. playback sessions, by id (the finalizer closes sessions in the same order);
 * 2. subject totals rows, by webinar and subject, a subject's mode row before its ALL row (as recordPlaybackSession);
 * 3. webinar totals rows, by webinar, the mode rows before the ALL rows (as recordPlaybackSession).
 *
 * A batch locks all three and reads what it needs with one statement (the database function lock_heartbeat_batch,
 * whose statements take the locks in this order, one after another), and writes everything with a second; both are
 * statements of fixed text (db/statements.ts): the batch's values go in arrays.
 */
import type { Transaction } from "kysely";
import type { Database, LiveStatus, PlaybackMode, SubjectKind, WatchScope } from "../db/schema";
import { runStatement, statement } from "../db/statements";

/** A playback session locked for crediting, with the live columns of its webinar read in the same statement. */
export interface LockedPlaybackSession {
  id: string;
  webinarId: string;
  uid: number | null;
  anonymousId: string | null;
  mode: PlaybackMode;
  /** The key of its subject's totals rows, and the subject's kind (the database's watch_subject_key and _kind). */
  subjectKey: string;
  kind: SubjectKind;
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
  kind: SubjectKind;
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
  subject_key: string;
  kind: SubjectKind;
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

/** The database function of migrations 0020 and 0021: its statements take the locks one after another, in the global order. */
const LOCK_BATCH = statement<LockedRow>(`select id, webinar_id, uid, anonymous_id, mode, subject_key, kind,
  last_activity_at, ended_at, credited_ms, live_status, live_started_at, live_ended_at, live_finalized_at,
  credited_until
from lock_heartbeat_batch($1::text[])`);

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
  const rows = await runStatement(trx, LOCK_BATCH, [ids]);
  const sessions = new Map<string, LockedPlaybackSession>();
  const watermarks = new Map<string, number>();
  for (const row of rows) {
    const session: LockedPlaybackSession = {
      id: row.id,
      webinarId: row.webinar_id,
      uid: row.uid,
      anonymousId: row.anonymous_id,
      mode: row.mode,
      subjectKey: row.subject_key,
      kind: row.kind,
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
      const key = { webinarId: session.webinarId, scope: session.mode, subjectKey: session.subjectKey };
      watermarks.set(subjectRowId(key), new Date(row.credited_until).getTime());
    }
  }
  return { sessions, watermarks };
}

const isoOrNull = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

/**
 * The write of a batch: the sessions, the subject totals and the webinar totals, each from parallel arrays (an
 * UPDATE ... FROM unnest(...)), in data-modifying CTEs so one statement writes the whole batch.
 */
const WRITE_BATCH = statement(`with session_rows as (
  update playback_sessions as s
  set last_activity_at = v.last_activity_at, credited_ms = v.credited_ms,
    watch_seconds = v.credited_ms / 1000, ended_at = v.ended_at
  from unnest($1::text[], $2::timestamptz[], $3::bigint[], $4::timestamptz[])
    as v(id, last_activity_at, credited_ms, ended_at)
  where s.id = v.id
), subject_rows as (
  update watch_subject_totals as t
  set credited_until = greatest(t.credited_until, v.credited_until),
    live_seconds = t.live_seconds + v.live_seconds,
    replay_seconds = t.replay_seconds + v.replay_seconds,
    total_seconds = t.total_seconds + v.live_seconds + v.replay_seconds,
    last_watched_at = greatest(t.last_watched_at, v.last_watched_at)
  from unnest($5::text[], $6::text[], $7::text[], $8::timestamptz[], $9::bigint[], $10::bigint[], $11::timestamptz[])
    as v(webinar_id, scope, subject_key, credited_until, live_seconds, replay_seconds, last_watched_at)
  where t.webinar_id = v.webinar_id and t.scope = v.scope and t.subject_key = v.subject_key
)
update watch_totals as w
set watch_seconds = w.watch_seconds + v.seconds, updated_at = greatest(w.updated_at, v.updated_at)
from unnest($12::text[], $13::text[], $14::text[], $15::bigint[], $16::timestamptz[])
  as v(webinar_id, scope, kind, seconds, updated_at)
where w.webinar_id = v.webinar_id and w.scope = v.scope and w.kind = v.kind`);

/** Writes a batch's credits, on rows {@link lockBatchRows} locked: the sessions, the subject totals and the webinar totals. */
export async function writeBatchCredits(trx: Transaction<Database>, credits: BatchCredits): Promise<void> {
  const { sessions, subjects, totals } = credits;
  await runStatement(trx, WRITE_BATCH, [
    sessions.map((row) => row.id),
    sessions.map((row) => new Date(row.lastActivityAt).toISOString()),
    sessions.map((row) => row.creditedMs),
    sessions.map((row) => isoOrNull(row.endedAt)),
    subjects.map((row) => row.webinarId),
    subjects.map((row) => row.scope),
    subjects.map((row) => row.subjectKey),
    subjects.map((row) => isoOrNull(row.creditedUntil)),
    subjects.map((row) => row.liveSeconds),
    subjects.map((row) => row.replaySeconds),
    subjects.map((row) => isoOrNull(row.lastWatchedAt)),
    totals.map((row) => row.webinarId),
    totals.map((row) => row.scope),
    totals.map((row) => row.kind),
    totals.map((row) => row.seconds),
    totals.map((row) => new Date(row.updatedAt).toISOString()),
  ]);
}
