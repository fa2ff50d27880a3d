/** The webinar a watch-data query names, with its live lifecycle; null when it is not the merchant's. */
import type { Kysely } from "kysely";
import { statement } from "../db/compiled";
import type { Database, LiveStatus } from "../db/schema";
import type { LiveState } from "./data-state";

export interface WatchedWebinar extends LiveState {
  id: string;
}

const findWebinar = statement<{ id: string; live_status: LiveStatus; live_started_at: Date | null; live_finalized_at: Date | null }>(
  "select id, live_status, live_started_at, live_finalized_at from webinars where ticket_code = $1 and merchant_id = $2",
);

export async function findWatchedWebinar(db: Kysely<Database>, merchantId: string, ticketCode: string): Promise<WatchedWebinar | null> {
  const [row] = await findWebinar(db, [ticketCode, merchantId]);
  if (row === undefined) return null;
  return { id: row.id, liveStatus: row.live_status, liveStartedAt: row.live_started_at, liveFinalizedAt: row.live_finalized_at };
}
