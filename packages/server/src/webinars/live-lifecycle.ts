/**
 * The live lifecycle of a webinar (admin `live` and `finalize`). Each transition is a conditional UPDATE on the
 * status it starts from, recorded in webinar_live_events in the same transaction, so concurrent actions apply
 * in some order and never skip a state; each announces the `webinars` topic. The `finalize` that follows an
 * end is watch-data/finalize-live-data.ts. What the states mean for the watch statistics (Data states dataState,
 * queryViewerWatch WATCH_DATA_NOT_FINAL) is read from these columns by the watch-data operations.
 */
import { type AlongWith, NOTHING_ALONG } from "../db/along-with";
import type { LiveAction, LiveStatus } from "../db/schema";
import { ServiceError } from "../errors";
import { randomBase62 } from "../runtime";
import type { WebinarChangeContext } from "./webinar-changes";

/** A live action also schedules the background finalization, this many seconds after the live ends. */
export type LiveContext = WebinarChangeContext & { finalizeGraceSeconds: number };

/** Target status of each action from each status; absent: not allowed. */
export const LIVE_TRANSITIONS: Readonly<Record<LiveStatus, Partial<Record<LiveAction, LiveStatus>>>> = {
  NOT_STARTED: { START: "LIVE", CANCEL: "CANCELLED", FAIL: "FAILED" },
  LIVE: { END: "ENDED", CANCEL: "CANCELLED", FAIL: "FAILED" },
  ENDED: {},
  CANCELLED: {},
  FAILED: {},
};

/** The status an action leads to wherever it is allowed (START -> LIVE, ...): repeating it changes nothing. */
const ACTION_TARGET: Readonly<Record<LiveAction, LiveStatus>> = {
  START: "LIVE",
  END: "ENDED",
  CANCEL: "CANCELLED",
  FAIL: "FAILED",
};

function notFound(ticketCode: string): ServiceError {
  return new ServiceError("WEBINAR_NOT_FOUND", `no webinar ${ticketCode}`);
}

export async function applyLiveAction(
  ctx: LiveContext,
  ticketCode: string,
  action: LiveAction,
  along: AlongWith<{ liveStatus: LiveStatus }> = NOTHING_ALONG,
): Promise<{ liveStatus: LiveStatus }> {
  return ctx.changes.write("webinars", async (trx) => {
    const webinar = await trx
      .selectFrom("webinars")
      .select(["id", "live_status"])
      .where("ticket_code", "=", ticketCode)
      .forUpdate()
      .executeTakeFirst();
    if (webinar === undefined) throw notFound(ticketCode);
    const from = webinar.live_status;
    if (from === ACTION_TARGET[action]) {
      await along(trx, { liveStatus: from });
      return { liveStatus: from };
    }
    const to = LIVE_TRANSITIONS[from][action];
    if (to === undefined) {
      throw new ServiceError("LIVE_TRANSITION_INVALID", `${action} is not allowed while the webinar is ${from}`, {
        liveStatus: from,
        action,
      });
    }
    const now = new Date(ctx.runtime.now());
    await trx
      .updateTable("webinars")
      .set({
        live_status: to,
        ...(to === "LIVE"
          ? { live_started_at: now }
          : { live_ended_at: now, live_finalize_due_at: new Date(now.getTime() + ctx.finalizeGraceSeconds * 1000) }),
      })
      .where("id", "=", webinar.id)
      .execute();
    await trx
      .insertInto("webinar_live_events")
      .values({
        id: `wle_${randomBase62(ctx.runtime, 16)}`,
        webinar_id: webinar.id,
        action,
        live_status: to,
        occurred_at: now,
      })
      .execute();
    await along(trx, { liveStatus: to });
    return { liveStatus: to };
  });
}
