/**
 * The live lifecycle of a webinar (admin `live` and `finalize`). Each transition is a conditional UPDATE on the
 * status it starts from, recorded in webinar_live_events in the same transaction, so concurrent actions apply
 * in some order and never skip a state; each announces the `webinars` topic. What the states mean for the watch statistics (Data states dataState,
 * queryViewerWatch WATCH_DATA_NOT_FINAL) is read from these columns by the watch-data operations.
 */
import type { LiveAction, LiveStatus } from "../db/schema";
import { ServiceError } from "../errors";
import { rfc3339 } from "../tickets/issue";
import { randomBase62 } from "../runtime";
import { finalizeLockedWebinar } from "../watch-data/finalize";
import type { AdminContext } from "./context";

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

const ENDED_STATES: readonly LiveStatus[] = ["ENDED", "CANCELLED", "FAILED"];

function notFound(ticketCode: string): ServiceError {
  return new ServiceError("WEBINAR_NOT_FOUND", `no webinar ${ticketCode}`);
}

export async function applyLiveAction(
  ctx: AdminContext,
  ticketCode: string,
  action: LiveAction,
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
    if (from === ACTION_TARGET[action]) return { liveStatus: from };
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
    return { liveStatus: to };
  });
}

/** Finalizes the live data of an ended, cancelled or failed webinar; the first finalization time is kept. */
export async function finalizeLiveData(
  ctx: AdminContext,
  ticketCode: string,
): Promise<{ ticketCode: string; liveStatus: LiveStatus; finalizedAt: string }> {
  return ctx.changes.write("webinars", async (trx) => {
    const webinar = await trx
      .selectFrom("webinars")
      .select(["id", "live_status", "live_finalized_at"])
      .where("ticket_code", "=", ticketCode)
      .forUpdate()
      .executeTakeFirst();
    if (webinar === undefined) throw notFound(ticketCode);
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
    return { ticketCode, liveStatus: webinar.live_status, finalizedAt: rfc3339(new Date(finalizedAt).getTime()) };
  });
}
