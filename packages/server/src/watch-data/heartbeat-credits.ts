/**
 * The statements of one group commit of heartbeat credits (watch/heartbeat-batch.ts decides what they write). Every
 * transaction that writes these rows takes its row locks in one global order, so concurrent batches, in one process
 * or several, and the playback starts and imports of record-session.ts never deadlock:
 *
 * 1. playback sessions, by id (the finalizer closes sessions in the same order);
 * 2. subject totals rows, by webinar and subject, a subject's mode row before its ALL row (as recordPlaybackSession);
 * 3. webinar totals rows, by webinar, the mode rows before the ALL rows (as recordPlaybackSession).
 *
 * A batch reads and locks 1 and 2 with one statement each, locks 3 (only what it credits) with a third, and writes
 * everything with a fourth.
 */
import { sql, type Transaction } from "kysely";
import type { Database, LiveStatus, PlaybackMode, WatchScope } from "../db/schema";

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

/** Locks the sessions of `ids` (in id order) and reads them with their webinar's live columns. */
export async function lockPlaybackSessions(
  trx: Transaction<Database>,
  ids: readonly string[],
): Promise<Map<string, LockedPlaybackSession>> {
  const rows = await trx
    .selectFrom("playback_sessions as s")
    .innerJoin("webinars as w", "w.id", "s.webinar_id")
    .select([
      "s.id",
      "s.webinar_id",
      "s.uid",
      "s.anonymous_id",
      "s.mode",
      "s.last_activity_at",
      "s.ended_at",
      (eb) => eb.cast<number>("s.credited_ms", "float8").as("credited_ms"),
      "w.live_status",
      "w.live_started_at",
      "w.live_ended_at",
      "w.live_finalized_at",
    ])
    .where("s.id", "in", ids)
    .orderBy("s.id")
    .forUpdate("s")
    .execute();
  return new Map(
    rows.map((row) => [
      row.id,
      {
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
      },
    ]),
  );
}

/** A map key of a subject totals row. */
export function subjectRowId(row: SubjectRowKey): string {
  return `${row.webinarId}\n${row.scope}\n${row.subjectKey}`;
}

/**
 * Locks the subject totals rows of `keys` in the global order and returns how far each was credited
 * (`credited_until` in epoch milliseconds; -Infinity when never), by {@link subjectRowId}.
 */
export async function lockSubjectRows(
  trx: Transaction<Database>,
  keys: readonly SubjectRowKey[],
): Promise<Map<string, number>> {
  if (keys.length === 0) return new Map();
  const rows = await trx
    .selectFrom("watch_subject_totals")
    .select(["webinar_id", "scope", "subject_key", "credited_until"])
    .where((eb) =>
      eb(
        eb.refTuple("webinar_id", "scope", "subject_key"),
        "in",
        keys.map((key) => eb.tuple(key.webinarId, key.scope, key.subjectKey)),
      ),
    )
    .orderBy("webinar_id")
    .orderBy("subject_key")
    .orderBy((eb) => eb("scope", "=", "ALL"))
    .orderBy("scope")
    .forUpdate()
    .execute();
  return new Map(
    rows.map((row) => [
      subjectRowId({ webinarId: row.webinar_id, scope: row.scope, subjectKey: row.subject_key }),
      row.credited_until === null ? -Infinity : new Date(row.credited_until).getTime(),
    ]),
  );
}

/** Locks the webinar totals rows a batch credits, in the global order. */
async function lockTotalsRows(trx: Transaction<Database>, totals: readonly TotalsCredit[]): Promise<void> {
  await trx
    .selectFrom("watch_totals")
    .select("webinar_id")
    .where((eb) =>
      eb(
        eb.refTuple("webinar_id", "scope", "kind"),
        "in",
        totals.map((row) => eb.tuple(row.webinarId, row.scope, row.kind)),
      ),
    )
    .orderBy("webinar_id")
    .orderBy((eb) => eb("scope", "=", "ALL"))
    .orderBy("scope")
    .orderBy("kind")
    .forUpdate()
    .execute();
}

const isoOrNull = (ms: number | null): string | null => (ms === null ? null : new Date(ms).toISOString());

/**
 * Writes a batch's credits: the sessions, the subject totals and the webinar totals, in one statement (after
 * locking the webinar totals rows it changes, the last rows of the lock order).
 */
export async function writeBatchCredits(trx: Transaction<Database>, credits: BatchCredits): Promise<void> {
  const { sessions, subjects, totals } = credits;
  if (totals.length > 0) await lockTotalsRows(trx, totals);
  // Raw SQL: the builder has no words for an UPDATE ... FROM unnest(...) of parallel arrays, nor for
  // data-modifying CTEs over several tables, which is what lets one statement write the whole batch.
  await sql`
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
  `.execute(trx);
}
