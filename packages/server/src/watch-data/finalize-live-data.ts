/**
 * The admin and console `finalize` (admin-openapi.yaml finalizeLiveData): the background finalizer's step
 * (finalize.ts), run now for one webinar that has ended, been cancelled or failed. It announces the `webinars`
 * topic, as every change of the live lifecycle does.
 */
import type { ChangeFeed } from "../cache/change-feed";
import { type AlongWith, NOTHING_ALONG } from "../db/along-with";
import type { LiveStatus } from "../db/schema";
import { ServiceError } from "../errors";
import { rfc3339 } from "../http/rfc3339";
import type { Runtime } from "../runtime";
import { finalizeLockedWebinar } from "./finalize";

const ENDED_STATES: readonly LiveStatus[] = ["ENDED", "CANCELLED", "FAILED"];

type FinalizedLiveData = { ticketCode: string; liveStatus: LiveStatus; finalizedAt: string };

/** Finalizes the live data of an ended, cancelled or failed webinar; the first finalization time is kept. */
export async function finalizeLiveData(
  ctx: { changes: ChangeFeed; runtime: Runtime },
  ticketCode: string,
  along: AlongWith<FinalizedLiveData> = NOTHING_ALONG,
): Promise<FinalizedLiveData> {
  return ctx.changes.write("webinars", async (trx) => {
    const webinar = await trx
      .selectFrom("webinars")
      .select(["id", "live_status", "live_finalized_at"])
      .where("ticket_code", "=", ticketCode)
      .forUpdate()
      .executeTakeFirst();
    if (webinar === undefined) throw new ServiceError("WEBINAR_NOT_FOUND", `no webinar ${ticketCode}`);
    if (!ENDED_STATES.includes(webinar.live_status)) {
      throw new ServiceError(
        "LIVE_NOT_ENDED",
        `live data can be finalized once the webinar has ended, been cancelled or failed; it is ${webinar.live_status}`,
        {
          liveStatus: webinar.live_status,
        },
      );
    }
    let finalizedAt = webinar.live_finalized_at;
    if (finalizedAt === null) {
      // The background finalizer's step, now (idempotent: the row lock and `live_finalized_at is null`).
      finalizedAt = new Date(ctx.runtime.now());
      await finalizeLockedWebinar(trx, webinar.id, finalizedAt, ctx.runtime);
    }
    const finalized = {
      ticketCode,
      liveStatus: webinar.live_status,
      finalizedAt: rfc3339(new Date(finalizedAt).getTime()),
    };
    await along(trx, finalized);
    return finalized;
  });
}
