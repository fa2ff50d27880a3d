/**
 * `GET /w/api/state?ticketCode=…` (watch-openapi.yaml, getWatchState): what the watch page shows for the viewer's watch session (cookie
 * `webinar_session` of the ticket exchange): the webinar's title, its state, the playback mode now available and
 * the video to play. The page polls it, so a live that starts or ends switches the page.
 */
import type { Kysely } from "kysely";
import type { Database, LiveStatus } from "../db/schema";
import { ServiceError } from "../errors";
import type { Runtime } from "../runtime";
import { TICKET_CODE_SHAPE } from "../tickets/ticket-code";
import { hashToken } from "../tickets/token";
import { cookieValue, SESSION_COOKIE } from "./cookies";
import { HEARTBEAT_INTERVAL_SECONDS } from "./playback";
import { SAMPLE_VIDEO_PATH } from "./sample-video";
import type { components } from "./watch-openapi.gen";

/** The answer without its `requestId` (watch-openapi.yaml, WatchState). */
export type WatchStateAnswer = Omit<components["schemas"]["WatchState"], "requestId">;

/** What the page says about a live status: ENDED is an ended live without a replay (a failed live). */
const STATES: Record<LiveStatus, WatchStateAnswer["state"]> = {
  NOT_STARTED: "SCHEDULED",
  LIVE: "LIVE",
  ENDED: "REPLAY",
  FAILED: "ENDED",
  CANCELLED: "CANCELLED",
};

/** The video of a mode: the webinar's own URL (a replay falls back to the live source), else the sample video. */
export function videoFor(
  mode: "LIVE" | "REPLAY",
  urls: { live_video_url: string | null; replay_video_url: string | null },
): string {
  const own = mode === "LIVE" ? urls.live_video_url : (urls.replay_video_url ?? urls.live_video_url);
  return own ?? SAMPLE_VIDEO_PATH;
}

export async function readWatchState(
  deps: { db: Kysely<Database>; runtime: Runtime },
  cookies: string | undefined,
  ticketCode: string | undefined,
): Promise<WatchStateAnswer> {
  const token = cookieValue(cookies, SESSION_COOKIE);
  if (ticketCode === undefined || !TICKET_CODE_SHAPE.test(ticketCode) || token === undefined || token === "")
    throw noSession();
  const row = await deps.db
    .selectFrom("watch_sessions as s")
    .innerJoin("webinars as w", "w.id", "s.webinar_id")
    .select(["s.uid", "w.ticket_code", "w.title", "w.live_status", "w.live_video_url", "w.replay_video_url"])
    .where("s.session_hash", "=", hashToken(token))
    .where("s.expires_at", ">", new Date(deps.runtime.now()))
    .where("w.ticket_code", "=", ticketCode)
    .executeTakeFirst();
  if (row === undefined) throw noSession();
  const state = STATES[row.live_status];
  const mode = state === "LIVE" ? "LIVE" : state === "REPLAY" ? "REPLAY" : null;
  return {
    uid: row.uid,
    ticketCode: row.ticket_code,
    title: row.title,
    state,
    mode,
    videoUrl: mode === null ? null : videoFor(mode, row),
    heartbeatIntervalSeconds: HEARTBEAT_INTERVAL_SECONDS,
  };
}

function noSession(): ServiceError {
  return new ServiceError(
    "PLAYBACK_UNAUTHORIZED",
    "no watch session for this webinar (open the page with a login link)",
  );
}
