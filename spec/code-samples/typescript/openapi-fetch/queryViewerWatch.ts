// Read per-viewer watch records (POST /api/v1/open/watch-data/viewers/query) with openapi-fetch and the signing
// middleware of @org/webinar-client: every page, following the server's nextCursor unchanged.
// Env: WEBINAR_BASE_URL, WEBINAR_API_KEY, WEBINAR_API_SECRET.
import createClient from "openapi-fetch";
import type { paths } from "@org/webinar-types";
import { createSigningMiddleware } from "@org/webinar-client";

const api = createClient<paths>({ baseUrl: process.env.WEBINAR_BASE_URL! });
api.use(createSigningMiddleware({ apiKey: process.env.WEBINAR_API_KEY!, secret: process.env.WEBINAR_API_SECRET! }));

const query = { ticketCode: "WBN8K2QX", playbackMode: "REPLAY", sort: "WATCH_SECONDS_DESC", pageSize: 50 } as const;
let cursor: string | undefined;
do {
  const { data, error } = await api.POST("/api/v1/open/watch-data/viewers/query", {
    body: cursor === undefined ? query : { ...query, cursor },
  });
  // LIVE and ALL answer 409 WATCH_DATA_NOT_FINAL until live data is final: poll later, each poll a new call.
  if (error) throw new Error(`${error.error.code}: ${error.error.message} (requestId ${error.requestId})`);
  for (const record of data.data.items) console.log(record.uid, record.externalUserId ?? "-", record.totalWatchSeconds);
  cursor = data.data.nextCursor;
} while (cursor !== undefined);
