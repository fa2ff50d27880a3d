/**
 * Webinars by their public code, as the Open API's operations and the watch page read them: the merchant, the
 * publication status ticket issuing checks, the live lifecycle the watch-data operations derive `dataState` and
 * WATCH_DATA_NOT_FINAL from, and the title and videos the watch page shows. Read from memory (cache/read-through-cache.ts); every write to these columns
 * announces the `webinars` topic. A `ticketCode` is unique across merchants, so one entry serves every caller, and
 * each caller checks the merchant.
 */
import type { Kysely } from "kysely";
import type { ChangeFeed } from "../cache/change-feed";
import { createReadThroughCache } from "../cache/read-through-cache";
import type { Database, LiveStatus, WebinarStatus } from "../db/schema";

export interface WebinarRecord {
  id: string;
  merchantId: string;
  status: WebinarStatus;
  liveStatus: LiveStatus;
  liveStartedAt: Date | null;
  liveFinalizedAt: Date | null;
  title: string | null;
  liveVideoUrl: string | null;
  replayVideoUrl: string | null;
}

export interface WebinarDirectory {
  /** The webinar with this code, whatever its merchant, or undefined. */
  byTicketCode(ticketCode: string): Promise<WebinarRecord | undefined>;
}

/** How many webinars are kept in memory; a busy process serves few at a time. */
const KEPT_WEBINARS = 10_000;

export function createWebinarDirectory(db: Kysely<Database>, changes: ChangeFeed): WebinarDirectory {
  const cache = createReadThroughCache<string, WebinarRecord>({
    feed: changes,
    topic: "webinars",
    max: KEPT_WEBINARS,
    load: async (ticketCode) => {
      const row = await db
        .selectFrom("webinars")
        .select([
          "id",
          "merchant_id",
          "status",
          "live_status",
          "live_started_at",
          "live_finalized_at",
          "title",
          "live_video_url",
          "replay_video_url",
        ])
        .where("ticket_code", "=", ticketCode)
        .executeTakeFirst();
      if (row === undefined) return undefined;
      return {
        id: row.id,
        merchantId: row.merchant_id,
        status: row.status,
        liveStatus: row.live_status,
        liveStartedAt: row.live_started_at,
        liveFinalizedAt: row.live_finalized_at,
        title: row.title,
        liveVideoUrl: row.live_video_url,
        replayVideoUrl: row.replay_video_url,
      };
    },
  });
  return { byTicketCode: (ticketCode) => cache.get(ticketCode) };
}
