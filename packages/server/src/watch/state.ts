/**
 * `GET /w/api/state?ticketCode=…` (watch-openapi.yaml, getWatchState): what the watch page shows for the viewer's watch session (cookie
 * `webinar_session` of the ticket exchange): the webinar's title, its state, the playback mode now available and
 * the video to play. The page polls it, so a live that starts or ends switches the page; every viewer's page polls,
 * so it reads the session and the webinar from memory (watch-sessions.ts, webinars/webinar-directory.ts).
 */
import type { LiveStatus } from "../db/schema";
import { ServiceError } from "../errors";
import { TICKET_CODE_SHAPE } from "../tickets/ticket-code";
import type { WebinarDirectory } from "../webinars/webinar-directory";
import { cookieValue } from "../http/cookies";
import { SESSION_COOKIE } from "./cookies";
import { SAMPLE_VIDEO_PATH } from "./sample-video";
import type { components } from "./watch-openapi.gen";
import type { WatchSessions } from "./watch-sessions";

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
  urls: { liveVideoUrl: string | null; replayVideoUrl: string | null },
): string {
  const own = mode === "LIVE" ? urls.liveVideoUrl : (urls.replayVideoUrl ?? urls.liveVideoUrl);
  return own ?? SAMPLE_VIDEO_PATH;
}

export async function readWatchState(
  deps: { sessions: WatchSessions; webinars: WebinarDirectory; heartbeatIntervalSeconds: number },
  cookies: string | undefined,
  ticketCode: string | undefined,
): Promise<WatchStateAnswer> {
  const token = cookieValue(cookies, SESSION_COOKIE);
  if (ticketCode === undefined || !TICKET_CODE_SHAPE.test(ticketCode) || token === undefined || token === "")
    throw noSession();
  const [session, webinar] = await Promise.all([deps.sessions.find(token), deps.webinars.byTicketCode(ticketCode)]);
  if (session === undefined || webinar === undefined || webinar.id !== session.webinarId) throw noSession();
  const state = STATES[webinar.liveStatus];
  const mode = state === "LIVE" ? "LIVE" : state === "REPLAY" ? "REPLAY" : null;
  return {
    uid: session.uid,
    ticketCode,
    title: webinar.title,
    state,
    mode,
    videoUrl: mode === null ? null : videoFor(mode, webinar),
    heartbeatIntervalSeconds: deps.heartbeatIntervalSeconds,
  };
}

function noSession(): ServiceError {
  return new ServiceError(
    "PLAYBACK_UNAUTHORIZED",
    "no watch session for this webinar (open the page with a login link)",
  );
}
