/** The webinar a watch-data query names, with its live lifecycle; null when it is not the merchant's. */
import type { Kysely } from "kysely";
import type { Database } from "../db/schema";
import type { LiveState } from "./data-state";

export interface WatchedWebinar extends LiveState {
  id: string;
}

export async function findWatchedWebinar(
  db: Kysely<Database>,
  merchantId: string,
  ticketCode: string,
): Promise<WatchedWebinar | null> {
  const row = await db
    .selectFrom("webinars")
    .select(["id", "live_status", "live_started_at", "live_finalized_at"])
    .where("ticket_code", "=", ticketCode)
    .where("merchant_id", "=", merchantId)
    .executeTakeFirst();
  if (row === undefined) return null;
  return {
    id: row.id,
    liveStatus: row.live_status,
    liveStartedAt: row.live_started_at,
    liveFinalizedAt: row.live_finalized_at,
  };
}
