/**
 * The crediting rules of the watch page's playback API (watch-openapi.yaml), which the document's "Playback" tag
 * and the docs' guide "Build your own player" state with their numbers; playback.ts applies them to a start, and
 * heartbeat-batch.ts to a batch of heartbeats and stops:
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
import type { LiveStatus, PlaybackMode } from "../db/schema";

/** A webinar's live columns, which decide when each mode can be credited. */
export interface WebinarLive {
  live_status: LiveStatus;
  live_started_at: Date | null;
  live_ended_at: Date | null;
  live_finalized_at: Date | null;
}

/** Whether a new session of `mode` may start: LIVE while live, REPLAY once the live has ended. */
export function available(mode: PlaybackMode, live: WebinarLive): boolean {
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
