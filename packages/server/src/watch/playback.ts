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
import { recordPlaybackSession } from "../watch-data/record-session";
import type { PlaybackReport } from "./heartbeat-batch";
import type { HeartbeatBatcher } from "./heartbeat-batcher";
import type { WatchBody } from "./request-body";
import { playbackUnauthorized, type WatchSubject } from "./subject";

/** The interval the page is asked to send heartbeats at; credit per heartbeat is capped at twice it. */
export const HEARTBEAT_INTERVAL_SECONDS = 15;

export interface PlaybackDeps {
  db: Kysely<Database>;
  runtime: Runtime;
}

/** A webinar's live columns, which decide when each mode can be credited. */
export interface WebinarLive {
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
export function creditWindow(mode: PlaybackMode, live: WebinarLive): { from: number; until: number } {
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

/**
 * A heartbeat (`close` false) or the stop (`close` true) of the subject's open session, credited with the heartbeats
 * that arrive with it (heartbeat-batcher.ts, heartbeat-batch.ts) by the rules above.
 */
export function heartbeatPlayback(
  heartbeats: HeartbeatBatcher,
  subject: WatchSubject,
  body: WatchBody<"sendHeartbeat"> | WatchBody<"stopPlayback">,
  close: boolean,
): Promise<PlaybackReport> {
  return heartbeats.credit({ playbackId: body.playbackId, playing: body.playing !== false, close, subject });
}
