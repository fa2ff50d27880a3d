/**
 * The watch page's playback API (watch-openapi.yaml): `POST /w/api/playback/start | heartbeat | stop` of a watch
 * subject (watch/subject.ts), credited by the rules of watch-data/crediting-rules.ts.
 */
import type { Kysely } from "kysely";
import type { Database } from "../db/schema";
import { ServiceError } from "../errors";
import { randomBase62, type Runtime } from "../runtime";
import { recordPlaybackSession } from "../watch-data/record-session";
import { available } from "../watch-data/crediting-rules";
import type { PlaybackReport } from "../watch-data/heartbeat-batch";
import type { HeartbeatBatcher } from "../watch-data/heartbeat-batcher";
import type { WatchBody } from "./request-body";
import type { WatchSubject } from "../watch-data/watch-subject";
import { playbackUnauthorized } from "./subject";

export interface PlaybackDeps {
  db: Kysely<Database>;
  runtime: Runtime;
  /** The interval the start announces (the server's configuration). */
  heartbeatIntervalSeconds: number;
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
  return { playbackId, heartbeatIntervalSeconds: deps.heartbeatIntervalSeconds };
}

/**
 * A heartbeat (`close` false) or the stop (`close` true) of the subject's open session, credited with the heartbeats
 * that arrive with it (heartbeat-batcher.ts, heartbeat-batch.ts) by the rules of crediting-rules.ts.
 */
export function heartbeatPlayback(
  heartbeats: HeartbeatBatcher,
  subject: WatchSubject,
  body: WatchBody<"sendHeartbeat"> | WatchBody<"stopPlayback">,
  close: boolean,
): Promise<PlaybackReport> {
  return heartbeats.credit({ playbackId: body.playbackId, playing: body.playing !== false, close, subject });
}
