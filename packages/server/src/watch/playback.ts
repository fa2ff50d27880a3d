/**
 * The watch page's playback API (watch-openapi.yaml): `POST /w/api/playback/start | heartbeat | stop` of a watch
 * subject (watch/subject.ts). The crediting rules, which the document's "Playback" tag and the docs' guide
 * "Build your own player" state with their numbers:
 *
 * - start opens a session (counted as one session, and one viewer for a subject's first session in a mode) with
 *   0 effective seconds; it is refused (409 PLAYBACK_NOT_AVAILABLE) for LIVE unless the webinar is live, and for
 *   REPLAY unless replay is available (the live has ENDED; not after a cancelled or failed live).
 * - each heartbeat `{playbackId, playing}` credits, when `playing`, the time since the previous heartbeat (or the
 *   start), capped at twice the heartbeat interval, and only the part of it in which the mode was available:
 *   LIVE until the live's end, REPLAY from the live's end. Not playing: nothing is credited, the time still moves.
 * - a subject playing in several sessions of one mode at once (two tabs, two devices) is credited each stretch of
 *   time once: a heartbeat credits only what no other session of the subject was already credited for.
 * - stop `{playbackId, playing?}` is a last heartbeat (`playing` defaults to true) and closes the session.
 * - the finalizer closes open LIVE sessions at their last heartbeat; a closed session is never credited again.
 * Seconds are credited as whole seconds of the session's credited milliseconds, so no fraction is lost.
 */
import type { Kysely } from "kysely";
import type { Database, LiveStatus, PlaybackMode } from "../db/schema";
import { ServiceError } from "../errors";
import { randomBase62, type Runtime } from "../runtime";
import { claimSubjectTime, creditPlaybackSeconds, recordPlaybackSession } from "../watch-data/record-session";
import type { WatchBody } from "./request-body";
import { playbackUnauthorized, type WatchSubject } from "./subject";

/** The interval the page is asked to send heartbeats at; credit per heartbeat is capped at twice it. */
export const HEARTBEAT_INTERVAL_SECONDS = 15;

export interface PlaybackDeps {
  db: Kysely<Database>;
  runtime: Runtime;
}

interface WebinarLive {
  live_status: LiveStatus;
  live_started_at: Date | null;
  live_ended_at: Date | null;
  live_finalized_at: Date | null;
}

/** Whether a new session of `mode` may start: LIVE while live, REPLAY once the live has ended. */
function available(mode: PlaybackMode, live: WebinarLive): boolean {
  return mode === "LIVE" ? live.live_status === "LIVE" : live.live_status === "ENDED";
}

/** The time window in which `mode` could be credited: LIVE from the start to the end, REPLAY from the end on. */
function creditWindow(mode: PlaybackMode, live: WebinarLive): { from: number; until: number } {
  const started = live.live_started_at === null ? Infinity : new Date(live.live_started_at).getTime();
  const ended = live.live_ended_at === null ? Infinity : new Date(live.live_ended_at).getTime();
  if (mode === "LIVE") {
    if (live.live_finalized_at !== null || live.live_status === "NOT_STARTED")
      return { from: Infinity, until: -Infinity };
    return { from: started, until: live.live_status === "LIVE" ? Infinity : ended };
  }
  return live.live_status === "ENDED" ? { from: ended, until: Infinity } : { from: Infinity, until: -Infinity };
}

/**
 * The stretch of time (epoch milliseconds) a heartbeat credits for the interval since `previous`, or undefined:
 * the part inside the mode's window, capped to its last twice-the-interval (pure: the rule itself, unit-testable).
 */
export function creditedSegment(
  previous: number,
  now: number,
  playing: boolean,
  window: { from: number; until: number },
  intervalSeconds: number,
): { from: number; until: number } | undefined {
  if (!playing || now <= previous) return undefined;
  const until = Math.min(now, window.until);
  const from = Math.max(previous, window.from, until - 2 * intervalSeconds * 1000);
  return until > from ? { from, until } : undefined;
}

export async function startPlayback(
  deps: PlaybackDeps,
  subject: WatchSubject,
  body: WatchBody<"startPlayback">,
): Promise<{ playbackId: string; heartbeatIntervalSeconds: number }> {
  const { mode, protocol, deviceType } = body;
  const { webinarId, merchantId } = subject;
  if (webinarId === null || merchantId === null) throw playbackUnauthorized();
  const playbackId = `pb_${randomBase62(deps.runtime, 22)}`;
  await deps.db.transaction().execute(async (trx) => {
    // Lock the webinar row shared, so a live action cannot change its status between the check and the insert.
    const live = await trx
      .selectFrom("webinars")
      .select(["live_status", "live_started_at", "live_ended_at", "live_finalized_at"])
      .where("id", "=", webinarId)
      .forShare()
      .executeTakeFirstOrThrow();
    if (!available(mode, live)) {
      throw new ServiceError(
        "PLAYBACK_NOT_AVAILABLE",
        mode === "LIVE" ? "the webinar is not live" : "no replay is available",
        { liveStatus: live.live_status },
      );
    }
    const now = new Date(deps.runtime.now());
    await recordPlaybackSession(trx, {
      id: playbackId,
      webinarId,
      merchantId,
      uid: subject.uid,
      anonymousId: subject.anonymousId,
      mode,
      watchSeconds: 0,
      deviceType,
      protocol,
      startedAt: now,
      recordedAt: now,
      open: true,
    });
  });
  return { playbackId, heartbeatIntervalSeconds: HEARTBEAT_INTERVAL_SECONDS };
}

/** A heartbeat (`close` false) or the stop (`close` true) of the subject's open session. */
export async function heartbeatPlayback(
  deps: PlaybackDeps,
  subject: WatchSubject,
  body: WatchBody<"sendHeartbeat"> | WatchBody<"stopPlayback">,
  close: boolean,
): Promise<{ playbackId: string; creditedSeconds: number; watchSeconds: number; ended: boolean }> {
  const { playbackId, playing } = body;
  return deps.db.transaction().execute(async (trx) => {
    const session = await trx
      .selectFrom("playback_sessions")
      .select([
        "id",
        "webinar_id",
        "uid",
        "anonymous_id",
        "mode",
        "last_activity_at",
        "ended_at",
        (eb) => eb.cast<number>("credited_ms", "float8").as("credited_ms"),
      ])
      .where("id", "=", playbackId)
      .forUpdate()
      .executeTakeFirst();
    const owned =
      session !== undefined &&
      (subject.webinarId === null || session.webinar_id === subject.webinarId) &&
      (subject.uid !== null ? session.uid === subject.uid : session.anonymous_id === subject.anonymousId);
    if (!owned) throw new ServiceError("PLAYBACK_NOT_FOUND", "no such playback session of this viewer");
    const creditedBefore = Number(session.credited_ms);
    if (session.ended_at !== null) {
      return { playbackId, creditedSeconds: 0, watchSeconds: Math.floor(creditedBefore / 1000), ended: true };
    }
    const live = await trx
      .selectFrom("webinars")
      .select(["live_status", "live_started_at", "live_ended_at", "live_finalized_at"])
      .where("id", "=", session.webinar_id)
      .executeTakeFirstOrThrow();
    const now = deps.runtime.now();
    const previous = new Date(session.last_activity_at).getTime();
    const window = creditWindow(session.mode, live);
    const subjectInMode = {
      webinarId: session.webinar_id,
      uid: session.uid,
      anonymousId: session.anonymous_id,
      mode: session.mode,
    };
    const segment = creditedSegment(previous, now, playing !== false, window, HEARTBEAT_INTERVAL_SECONDS);
    // Time another session of the same subject and mode was already credited for is not credited again.
    const millis = segment === undefined ? 0 : await claimSubjectTime(trx, subjectInMode, segment);
    const creditedAfter = creditedBefore + millis;
    const seconds = Math.floor(creditedAfter / 1000) - Math.floor(creditedBefore / 1000);
    const nowDate = new Date(Math.max(now, previous));
    await trx
      .updateTable("playback_sessions")
      .set({
        last_activity_at: nowDate,
        credited_ms: creditedAfter,
        watch_seconds: Math.floor(creditedAfter / 1000),
        ...(close ? { ended_at: nowDate } : {}),
      })
      .where("id", "=", playbackId)
      .execute();
    if (seconds > 0) {
      const watchedUntil = new Date(Math.min(nowDate.getTime(), window.until));
      await creditPlaybackSeconds(trx, subjectInMode, seconds, watchedUntil, nowDate);
    }
    return { playbackId, creditedSeconds: seconds, watchSeconds: Math.floor(creditedAfter / 1000), ended: close };
  });
}
