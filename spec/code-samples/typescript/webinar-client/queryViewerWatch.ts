// Read per-viewer watch records (POST /api/v1/open/watch-data/viewers/query) with @org/webinar-client: every page,
// following the server's nextCursor. Env: WEBINAR_BASE_URL, WEBINAR_API_KEY, WEBINAR_API_SECRET.
import { createWebinarClient } from "@org/webinar-client";

const client = createWebinarClient({
  baseUrl: process.env.WEBINAR_BASE_URL!,
  apiKey: process.env.WEBINAR_API_KEY!,
  secret: process.env.WEBINAR_API_SECRET!,
});

const query = { ticketCode: "WBN8K2QX", playbackMode: "LIVE", sort: "WATCH_SECONDS_DESC", pageSize: 50 } as const;
// LIVE and ALL answer 409 WATCH_DATA_NOT_FINAL until live data is final; waitForFinal polls until it is.
for await (const record of client.iterateViewerWatch(query, {
  waitForFinal: { intervalMs: 10_000, timeoutMs: 600_000 },
})) {
  console.log(record.uid, record.externalUserId ?? "-", record.totalWatchSeconds);
}
// One page only: await client.queryViewerWatch({ ...query, cursor: previousPage.nextCursor })
// More than 300 ids: await client.queryViewerWatchByIds({ ...query, uids }) batches and merges them.
