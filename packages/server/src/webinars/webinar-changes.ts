/**
 * Changes to webinars, as the admin API and the console make them: creation (ticketCode generated when not given,
 * globally unique), the publication status that ticket issuing checks (Data states: only PUBLISHED webinars get
 * tickets) and the watch page's video sources.
 */
import type { Kysely, Transaction } from "kysely";
import type { ChangeFeed } from "../cache/change-feed";
import { type AlongWith, NOTHING_ALONG } from "../db/along-with";
import { isUniqueViolation } from "../db/errors";
import type { Database, WebinarStatus } from "../db/schema";
import { ServiceError } from "../errors";
import { randomBase62, type Runtime } from "../runtime";

/** What a change of a webinar needs: the database, the injected clock and randomness, and the change feed. */
export interface WebinarChangeContext {
  db: Kysely<Database>;
  runtime: Runtime;
  /** Webinars are read from memory: a change goes through the feed, so every process learns of it. */
  changes: ChangeFeed;
}

const TICKET_CODE_CONSTRAINT = "webinars_ticket_code_key";

export interface CreateWebinarInput {
  ticketCode?: string;
  title?: string;
  status?: WebinarStatus;
  liveVideoUrl?: string;
  replayVideoUrl?: string;
}

/** The watch page's video sources (admin-openapi.yaml, setWebinarVideo); null clears one, absent keeps it. */
export interface WebinarVideoInput {
  liveVideoUrl?: string | null;
  replayVideoUrl?: string | null;
}

/** `wbn-` + 10 base62 characters, the shape of the spec's examples. */
export function newTicketCode(runtime: Runtime): string {
  return `wbn-${randomBase62(runtime, 10)}`;
}

/** The webinar's internal id by its public code, or WEBINAR_NOT_FOUND. */
export async function webinarIdByCode(
  db: Kysely<Database>,
  ticketCode: string,
): Promise<{ id: string; merchant_id: string }> {
  const row = await db
    .selectFrom("webinars")
    .select(["id", "merchant_id"])
    .where("ticket_code", "=", ticketCode)
    .executeTakeFirst();
  if (row === undefined) throw new ServiceError("WEBINAR_NOT_FOUND", `no webinar ${ticketCode}`);
  return row;
}

export async function createWebinar(
  ctx: WebinarChangeContext,
  merchantId: string,
  input: CreateWebinarInput,
  along: AlongWith<{ ticketCode: string }> = NOTHING_ALONG,
): Promise<{ ticketCode: string }> {
  const merchant = await ctx.db.selectFrom("merchants").select("id").where("id", "=", merchantId).executeTakeFirst();
  if (merchant === undefined) throw new ServiceError("MERCHANT_NOT_FOUND", `no merchant ${merchantId}`);
  for (let attempt = 0; ; attempt += 1) {
    const ticketCode = input.ticketCode ?? newTicketCode(ctx.runtime);
    try {
      // A transaction per attempt: a taken code fails its statement, and with it the transaction.
      await ctx.db.transaction().execute(async (trx) => {
        await trx
          .insertInto("webinars")
          .values({
            id: `wbi_${randomBase62(ctx.runtime, 16)}`,
            merchant_id: merchantId,
            ticket_code: ticketCode,
            title: input.title ?? null,
            status: input.status ?? "PUBLISHED",
            live_status: "NOT_STARTED",
            live_started_at: null,
            live_ended_at: null,
            live_finalized_at: null,
            live_video_url: input.liveVideoUrl ?? null,
            replay_video_url: input.replayVideoUrl ?? null,
            created_at: new Date(ctx.runtime.now()),
          })
          .execute();
        await along(trx, { ticketCode });
      });
      return { ticketCode };
    } catch (error) {
      if (!isUniqueViolation(error, TICKET_CODE_CONSTRAINT)) throw error;
      if (input.ticketCode !== undefined)
        throw new ServiceError("TICKET_CODE_TAKEN", `ticketCode ${ticketCode} is already used`);
      if (attempt >= 3) throw error;
    }
  }
}

export async function setWebinarStatus(
  ctx: WebinarChangeContext,
  ticketCode: string,
  status: WebinarStatus,
  along: AlongWith<{ ticketCode: string; status: WebinarStatus }> = NOTHING_ALONG,
): Promise<{ ticketCode: string; status: WebinarStatus }> {
  return ctx.changes.write("webinars", async (trx) => {
    const result = await trx
      .updateTable("webinars")
      .set({ status })
      .where("ticket_code", "=", ticketCode)
      .executeTakeFirst();
    if (result.numUpdatedRows === 0n) throw new ServiceError("WEBINAR_NOT_FOUND", `no webinar ${ticketCode}`);
    await along(trx, { ticketCode, status });
    return { ticketCode, status };
  });
}

type WebinarVideos = { ticketCode: string; liveVideoUrl: string | null; replayVideoUrl: string | null };

export async function setWebinarVideo(
  ctx: WebinarChangeContext,
  ticketCode: string,
  input: WebinarVideoInput,
  along: AlongWith<WebinarVideos> = NOTHING_ALONG,
): Promise<WebinarVideos> {
  const changes = {
    ...(input.liveVideoUrl === undefined ? {} : { live_video_url: input.liveVideoUrl }),
    ...(input.replayVideoUrl === undefined ? {} : { replay_video_url: input.replayVideoUrl }),
  };
  const change = async (trx: Transaction<Database>) => {
    const row =
      Object.keys(changes).length === 0
        ? await trx
            .selectFrom("webinars")
            .select(["live_video_url", "replay_video_url"])
            .where("ticket_code", "=", ticketCode)
            .executeTakeFirst()
        : await trx
            .updateTable("webinars")
            .set(changes)
            .where("ticket_code", "=", ticketCode)
            .returning(["live_video_url", "replay_video_url"])
            .executeTakeFirst();
    if (row === undefined) throw new ServiceError("WEBINAR_NOT_FOUND", `no webinar ${ticketCode}`);
    const result = { ticketCode, liveVideoUrl: row.live_video_url, replayVideoUrl: row.replay_video_url };
    await along(trx, result);
    return result;
  };
  // Nothing to change: nothing to announce.
  return Object.keys(changes).length === 0
    ? ctx.db.transaction().execute(change)
    : ctx.changes.write("webinars", change);
}
