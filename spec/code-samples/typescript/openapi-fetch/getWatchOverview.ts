// Read the watch-data overview of a webinar (POST /api/v1/open/watch-data/overview) with openapi-fetch and the
// signing middleware of @org/webinar-client. Env: WEBINAR_BASE_URL, WEBINAR_API_KEY, WEBINAR_API_SECRET.
import createClient from "openapi-fetch";
import type { paths } from "@org/webinar-types";
import { createSigningMiddleware } from "@org/webinar-client";

const api = createClient<paths>({ baseUrl: process.env.WEBINAR_BASE_URL! });
api.use(createSigningMiddleware({ apiKey: process.env.WEBINAR_API_KEY!, secret: process.env.WEBINAR_API_SECRET! }));

const { data, error } = await api.POST("/api/v1/open/watch-data/overview", {
  body: { ticketCode: "WBN8K2QX", playbackMode: "ALL" },
});
if (error) throw new Error(`${error.error.code}: ${error.error.message} (requestId ${error.requestId})`);
const overview = data.data;
console.log(overview.dataState, `${overview.all.viewerCount} viewers, ${overview.all.watchSeconds} s watched`);

// To settle live data, query with playbackMode "LIVE" until dataState is "FINAL", each poll a new call.
