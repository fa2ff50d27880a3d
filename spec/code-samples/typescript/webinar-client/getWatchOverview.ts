// Read the watch-data overview of a webinar (POST /api/v1/open/watch-data/overview) with @org/webinar-client.
// Env: WEBINAR_BASE_URL, WEBINAR_API_KEY, WEBINAR_API_SECRET.
import { createWebinarClient } from "@org/webinar-client";

const client = createWebinarClient({
  baseUrl: process.env.WEBINAR_BASE_URL!,
  apiKey: process.env.WEBINAR_API_KEY!,
  secret: process.env.WEBINAR_API_SECRET!,
});

const overview = await client.getWatchOverview({ ticketCode: "WBN8K2QX", playbackMode: "ALL" });
console.log(overview.dataState, `${overview.all.viewerCount} viewers, ${overview.all.watchSeconds} s watched`);

// To settle live data, poll the LIVE overview until it is FINAL:
// const final = await client.waitForLiveFinal("WBN8K2QX", { intervalMs: 10_000, timeoutMs: 30 * 60_000 });
