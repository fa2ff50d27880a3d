/**
 * The watch page's playback API: `POST /w/api/playback/start | heartbeat | stop`. The viewer is the watch-page
 * session of the ticket exchange (cookie `webinar_session`), or, without one, a system anonymous subject kept in
 * the cookie `webinar_anon` (set on the first start; the start body then names the webinar by `ticketCode`).
 *
 * Crediting rules (also in the spec's guide "Playback crediting"):
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
import { TICKET_CODE_SHAPE } from "../tickets/ticket-code";
import { hashToken } from "../tickets/token";
import { claimSubjectTime, creditPlaybackSeconds, recordPlaybackSession } from "../watch-data/record-session";

export const ANON_COOKIE = "webinar_anon";
/** The interval the page is asked to send heartbeats at; credit per heartbeat is capped at twice it. */
export const HEARTBEAT_INTERVAL_SECONDS = 15;

export interface Viewer {
  /** null: an anonymous subject's heartbeat or stop (the playback session names the webinar). */
  webinarId: string | null;
  merchantId: string | null;
  uid: number | null;
  anonymousId: string | null;
}

export interface PlaybackDeps {
  db: Kysely<Database>;
  runtime: Runtime;
  heartbeatIntervalSeconds?: number;
}

const TOKEN_SHAPE = /^[A-Za-z0-9_-]{8,128}$/;
const DEVICE_TYPES = ["DESKTOP", "MOBILE", "TABLET", "TV", "UNKNOWN"];
const PROTOCOLS = ["WEBRTC", "HLS", "FLV", "RTMP", "DASH"];

function invalid(message: string): ServiceError {
  return new ServiceError("REQUEST_INVALID", message);
}

function unauthorized(): ServiceError {
  return new ServiceError(
    "PLAYBACK_UNAUTHORIZED",
    "no watch session (exchange a login ticket first) or anonymous subject",
  );
}

/** The cookie value of `name`, or undefined. */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? "").split(";")) {
    const [key, ...value] = part.trim().split("=");
    if (key === name) return value.join("=");
  }
  return undefined;
}

/**
 * The viewer of a request: the watch session, else the anonymous cookie (with the webinar of `ticketCode`).
 * Returns the anonymous id to set as a cookie when it was just made.
 */
export async function resolveViewer(
  deps: PlaybackDeps,
  cookies: string | undefined,
  ticketCode: unknown,
  createAnonymous: boolean,
): Promise<{ viewer: Viewer; newAnonymousId?: string }> {
  const sessionToken = cookieValue(cookies, "webinar_session");
  if (sessionToken !== undefined && sessionToken !== "") {
    const session = await deps.db
      .selectFrom("watch_sessions")
      .select(["merchant_id", "uid", "webinar_id"])
      .where("session_hash", "=", hashToken(sessionToken))
      .where("expires_at", ">", new Date(deps.runtime.now()))
      .executeTakeFirst();
    if (session !== undefined)
      return {
        viewer: { webinarId: session.webinar_id, merchantId: session.merchant_id, uid: session.uid, anonymousId: null },
      };
  }
  let anonymousId = cookieValue(cookies, ANON_COOKIE);
  if (anonymousId !== undefined && !TOKEN_SHAPE.test(anonymousId)) anonymousId = undefined;
  if (anonymousId === undefined && !createAnonymous) throw unauthorized();
  // A heartbeat or stop of an anonymous subject: its playback session names the webinar.
  if (anonymousId !== undefined && !createAnonymous && ticketCode === undefined) {
    return { viewer: { webinarId: null, merchantId: null, uid: null, anonymousId } };
  }
  if (typeof ticketCode !== "string" || !TICKET_CODE_SHAPE.test(ticketCode)) throw unauthorized();
  const webinar = await deps.db
    .selectFrom("webinars")
    .select(["id", "merchant_id"])
    .where("ticket_code", "=", ticketCode)
    .executeTakeFirst();
  if (webinar === undefined) throw new ServiceError("WEBINAR_NOT_FOUND", "no webinar with this ticketCode");
  const made = anonymousId === undefined ? `anon_${randomBase62(deps.runtime, 24)}` : undefined;
  return {
    viewer: { webinarId: webinar.id, merchantId: webinar.merchant_id, uid: null, anonymousId: anonymousId ?? made! },
    ...(made === undefined ? {} : { newAnonymousId: made }),
  };
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
  viewer: Viewer,
  body: Record<string, unknown>,
): Promise<{ playbackId: string; heartbeatIntervalSeconds: number }> {
  const { mode, protocol, deviceType } = body;
  if (mode !== "LIVE" && mode !== "REPLAY") throw invalid("mode must be LIVE or REPLAY");
  if (typeof protocol !== "string" || !PROTOCOLS.includes(protocol))
    throw invalid(`protocol must be one of ${PROTOCOLS.join(", ")}`);
  if (typeof deviceType !== "string" || !DEVICE_TYPES.includes(deviceType))
    throw invalid(`deviceType must be one of ${DEVICE_TYPES.join(", ")}`);
  const interval = deps.heartbeatIntervalSeconds ?? HEARTBEAT_INTERVAL_SECONDS;
  const { webinarId, merchantId } = viewer;
  if (webinarId === null || merchantId === null) throw unauthorized();
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
      uid: viewer.uid,
      anonymousId: viewer.anonymousId,
      mode,
      watchSeconds: 0,
      deviceType,
      protocol,
      startedAt: now,
      recordedAt: now,
      open: true,
    });
  });
  return { playbackId, heartbeatIntervalSeconds: interval };
}

/** A heartbeat (`close` false) or the stop (`close` true) of the viewer's open session. */
export async function heartbeatPlayback(
  deps: PlaybackDeps,
  viewer: Viewer,
  body: Record<string, unknown>,
  close: boolean,
): Promise<{ playbackId: string; creditedSeconds: number; watchSeconds: number; ended: boolean }> {
  const { playbackId, playing } = body;
  if (typeof playbackId !== "string" || !/^pb_[A-Za-z0-9]{22}$/.test(playbackId))
    throw invalid("playbackId is required");
  if (close ? playing !== undefined && typeof playing !== "boolean" : typeof playing !== "boolean")
    throw invalid("playing must be a boolean");
  const interval = deps.heartbeatIntervalSeconds ?? HEARTBEAT_INTERVAL_SECONDS;
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
      (viewer.webinarId === null || session.webinar_id === viewer.webinarId) &&
      (viewer.uid !== null ? session.uid === viewer.uid : session.anonymous_id === viewer.anonymousId);
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
    const subject = {
      webinarId: session.webinar_id,
      uid: session.uid,
      anonymousId: session.anonymous_id,
      mode: session.mode,
    };
    const segment = creditedSegment(previous, now, playing !== false, window, interval);
    // Time another session of the same subject and mode was already credited for is not credited again.
    const millis = segment === undefined ? 0 : await claimSubjectTime(trx, subject, segment);
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
      await creditPlaybackSeconds(trx, subject, seconds, watchedUntil, nowDate);
    }
    return { playbackId, creditedSeconds: seconds, watchSeconds: Math.floor(creditedAfter / 1000), ended: close };
  });
}
