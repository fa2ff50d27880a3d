/**
 * Admin operations on webinars: creation (ticketCode generated when not given, globally unique) and the
 * publication status that ticket issuing checks (Data states: only PUBLISHED webinars get tickets).
 */
import type { Kysely } from "kysely";
import { isUniqueViolation } from "../db/errors";
import type { Database, WebinarStatus } from "../db/schema";
import { ServiceError } from "../errors";
import { randomBase62, type Runtime } from "../runtime";
import type { AdminContext } from "./context";

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
  ctx: AdminContext,
  merchantId: string,
  input: CreateWebinarInput,
): Promise<{ ticketCode: string }> {
  const merchant = await ctx.db.selectFrom("merchants").select("id").where("id", "=", merchantId).executeTakeFirst();
  if (merchant === undefined) throw new ServiceError("MERCHANT_NOT_FOUND", `no merchant ${merchantId}`);
  for (let attempt = 0; ; attempt += 1) {
    const ticketCode = input.ticketCode ?? newTicketCode(ctx.runtime);
    try {
      await ctx.db
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
  ctx: AdminContext,
  ticketCode: string,
  status: WebinarStatus,
): Promise<{ ticketCode: string; status: WebinarStatus }> {
  const result = await ctx.changes.write("webinars", (trx) =>
    trx.updateTable("webinars").set({ status }).where("ticket_code", "=", ticketCode).executeTakeFirst(),
  );
  if (result.numUpdatedRows === 0n) throw new ServiceError("WEBINAR_NOT_FOUND", `no webinar ${ticketCode}`);
  return { ticketCode, status };
}

export async function setWebinarVideo(
  ctx: AdminContext,
  ticketCode: string,
  input: WebinarVideoInput,
): Promise<{ ticketCode: string; liveVideoUrl: string | null; replayVideoUrl: string | null }> {
  const changes = {
    ...(input.liveVideoUrl === undefined ? {} : { live_video_url: input.liveVideoUrl }),
    ...(input.replayVideoUrl === undefined ? {} : { replay_video_url: input.replayVideoUrl }),
  };
  const row =
    Object.keys(changes).length === 0
      ? await ctx.db
          .selectFrom("webinars")
          .select(["live_video_url", "replay_video_url"])
          .where("ticket_code", "=", ticketCode)
          .executeTakeFirst()
      : await ctx.changes.write("webinars", (trx) =>
          trx
            .updateTable("webinars")
            .set(changes)
            .where("ticket_code", "=", ticketCode)
            .returning(["live_video_url", "replay_video_url"])
            .executeTakeFirst(),
        );
  if (row === undefined) throw new ServiceError("WEBINAR_NOT_FOUND", `no webinar ${ticketCode}`);
  return { ticketCode, liveVideoUrl: row.live_video_url, replayVideoUrl: row.replay_video_url };
}
