/**
 * Records one finished playback session and folds it into the incrementally maintained statistics, in one
 * transaction: the session row, then for its mode and for ALL the subject's totals and the webinar's counts
 * (a subject's first session in a scope adds one viewer there). Rows are always locked in the same order
 * (subject of the mode, subject of ALL, counts of the mode, counts of ALL: the global order of
 * heartbeat-credits.ts), so concurrent imports, starts and heartbeat batches cannot deadlock, and the upserts'
 * row locks make the counts exact. A subject's key and kind are the database's (watch_subject_key and
 * watch_subject_kind, migration 0020).
 */
import { sql, type Transaction } from "kysely";
import type { Database, PlaybackMode, SubjectKind, WatchScope } from "../db/schema";

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

/** A subject's session in `scope`: the upsert of its totals row; true when the row is new (a new viewer there). */
async function addToSubject(
  trx: Transaction<Database>,
  row: {
    webinarId: string;
    scope: WatchScope;
    anonymousId: string | null;
    uid: number | null;
    live: number;
    replay: number;
    first: Date;
    last: Date;
    deviceTypes: string[];
    protocols: string[];
  },
): Promise<boolean> {
  const inserted = await trx
    .insertInto("watch_subject_totals")
    .values({
      webinar_id: row.webinarId,
      scope: row.scope,
      subject_key: sql<string>`watch_subject_key(${row.uid}::integer, ${row.anonymousId}::text)`,
      uid: row.uid,
      live_seconds: row.live,
      replay_seconds: row.replay,
      total_seconds: row.live + row.replay,
      session_count: 1,
      first_watched_at: row.first,
      last_watched_at: row.last,
      device_types: row.deviceTypes,
      protocols: row.protocols,
    })
    .onConflict((oc) =>
      oc.columns(["webinar_id", "scope", "subject_key"]).doUpdateSet((eb) => ({
        live_seconds: eb("watch_subject_totals.live_seconds", "+", eb.ref("excluded.live_seconds")),
        replay_seconds: eb("watch_subject_totals.replay_seconds", "+", eb.ref("excluded.replay_seconds")),
        total_seconds: eb("watch_subject_totals.total_seconds", "+", eb.ref("excluded.total_seconds")),
        session_count: eb("watch_subject_totals.session_count", "+", 1),
        first_watched_at: eb.fn("least", ["watch_subject_totals.first_watched_at", "excluded.first_watched_at"]),
        last_watched_at: eb.fn("greatest", ["watch_subject_totals.last_watched_at", "excluded.last_watched_at"]),
        // Raw SQL: the builder has no array constructor over a subquery (the sorted union of both lists).
        device_types: sql<
          string[]
        >`array(select distinct d from unnest(watch_subject_totals.device_types || excluded.device_types) d order by d)`,
        protocols: sql<
          string[]
        >`array(select distinct p from unnest(watch_subject_totals.protocols || excluded.protocols) p order by p)`,
      })),
    )
    // Raw SQL: the builder cannot name the system column xmax (0 for a row this statement inserted).
    .returning(sql<boolean>`(xmax = 0)`.as("inserted"))
    .executeTakeFirst();
  return inserted?.inserted === true;
}

/** A session in `scope` of the webinar's counts of `kind`: one more session, `newViewers` more viewers. */
async function addToTotals(
  trx: Transaction<Database>,
  row: {
    webinarId: string;
    scope: WatchScope;
    uid: number | null;
    newViewers: number;
    seconds: number;
    at: Date;
  },
): Promise<void> {
  await trx
    .insertInto("watch_totals")
    .values({
      webinar_id: row.webinarId,
      scope: row.scope,
      kind: sql<SubjectKind>`watch_subject_kind(${row.uid}::integer)`,
      viewer_count: row.newViewers,
      session_count: 1,
      watch_seconds: row.seconds,
      updated_at: row.at,
    })
    .onConflict((oc) =>
      oc.columns(["webinar_id", "scope", "kind"]).doUpdateSet((eb) => ({
        viewer_count: eb("watch_totals.viewer_count", "+", eb.ref("excluded.viewer_count")),
        session_count: eb("watch_totals.session_count", "+", 1),
        watch_seconds: eb("watch_totals.watch_seconds", "+", eb.ref("excluded.watch_seconds")),
        updated_at: eb.fn("greatest", ["watch_totals.updated_at", "excluded.updated_at"]),
      })),
    )
    .execute();
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
      last_activity_at:
        session.open === true ? session.startedAt : new Date(session.startedAt.getTime() + session.watchSeconds * 1000),
      ended_at: session.open === true ? null : new Date(session.startedAt.getTime() + session.watchSeconds * 1000),
      credited_ms: session.watchSeconds * 1000,
    })
    .execute();
  const live = session.mode === "LIVE" ? session.watchSeconds : 0;
  const replay = session.mode === "REPLAY" ? session.watchSeconds : 0;
  const lastWatchedAt = new Date(session.startedAt.getTime() + session.watchSeconds * 1000);
  const scopes = [session.mode, "ALL"] as const;
  const newViewer: boolean[] = [];
  for (const scope of scopes) {
    newViewer.push(
      await addToSubject(trx, {
        webinarId: session.webinarId,
        scope,
        anonymousId: session.anonymousId,
        uid: session.uid,
        live,
        replay,
        first: session.startedAt,
        last: lastWatchedAt,
        deviceTypes: [session.deviceType],
        protocols: session.protocol === null ? [] : [session.protocol],
      }),
    );
  }
  for (const [index, scope] of scopes.entries()) {
    await addToTotals(trx, {
      webinarId: session.webinarId,
      scope,
      uid: session.uid,
      newViewers: newViewer[index] ? 1 : 0,
      seconds: session.watchSeconds,
      at: session.recordedAt,
    });
  }
}
