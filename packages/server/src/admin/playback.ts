/**
 * Playback-session import (admin `playback-sessions`): one finished session of a registered viewer or a system
 * anonymous subject, stored as recorded and folded into the watch statistics in the same transaction. Once live
 * data is FINAL its figures never change (spec guide "Playback crediting"), so a LIVE session is then refused.
 */
import type { PlaybackMode } from "../db/schema";
import { ServiceError } from "../errors";
import { randomBase62 } from "../runtime";
import { rfc3339 } from "../http/rfc3339";
import type { AdminContext } from "./context";
import { webinarIdByCode } from "../webinars/webinar-changes";
import { recordPlaybackSession } from "../watch-data/record-session";

export interface ImportPlaybackSessionInput {
  subject: { uid: number } | { anonymousId: string };
  mode: PlaybackMode;
  watchSeconds: number;
  deviceType?: string;
  protocol?: string;
  startedAt?: string;
}

export async function importPlaybackSession(
  ctx: AdminContext,
  ticketCode: string,
  input: ImportPlaybackSessionInput,
): Promise<{ sessionId: string }> {
  const webinar = await webinarIdByCode(ctx.db, ticketCode);
  const now = ctx.runtime.now();
  const startedAt =
    input.startedAt === undefined ? new Date(now - input.watchSeconds * 1000) : new Date(input.startedAt);
  if (Number.isNaN(startedAt.getTime())) {
    throw new ServiceError("REQUEST_INVALID", "request body is invalid", {
      errors: [{ pointer: "/startedAt", rule: "format", message: "must be an RFC 3339 date-time" }],
    });
  }
  const uid = "uid" in input.subject ? input.subject.uid : null;
  if (uid !== null) {
    const viewer = await ctx.db
      .selectFrom("viewers")
      .select("uid")
      .where("merchant_id", "=", webinar.merchant_id)
      .where("uid", "=", uid)
      .executeTakeFirst();
    if (viewer === undefined)
      throw new ServiceError("VIEWER_NOT_FOUND", "no viewer with this uid in the webinar's merchant");
  }
  const sessionId = `ps_${randomBase62(ctx.runtime, 20)}`;
  await ctx.db.transaction().execute(async (trx) => {
    // Shared lock: the finalizer cannot mark live data final between this check and the insert.
    const live = await trx
      .selectFrom("webinars")
      .select("live_finalized_at")
      .where("id", "=", webinar.id)
      .forShare()
      .executeTakeFirstOrThrow();
    if (input.mode === "LIVE" && live.live_finalized_at !== null) {
      throw new ServiceError(
        "LIVE_DATA_FINAL",
        "live data of this webinar is final and no longer changes; LIVE sessions can no longer be recorded",
        {
          finalizedAt: rfc3339(new Date(live.live_finalized_at).getTime()),
        },
      );
    }
    await recordPlaybackSession(trx, {
      id: sessionId,
      webinarId: webinar.id,
      merchantId: webinar.merchant_id,
      uid,
      anonymousId: "anonymousId" in input.subject ? input.subject.anonymousId : null,
      mode: input.mode,
      watchSeconds: input.watchSeconds,
      deviceType: input.deviceType ?? "UNKNOWN",
      protocol: input.protocol ?? null,
      startedAt,
      recordedAt: new Date(now),
    });
  });
  return { sessionId };
}
