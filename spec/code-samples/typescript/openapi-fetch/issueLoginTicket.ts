// Issue a one-time login ticket (POST /api/v1/open/viewers/login-tickets) with openapi-fetch and the signing
// middleware of @org/webinar-client. Env: WEBINAR_BASE_URL, WEBINAR_API_KEY, WEBINAR_API_SECRET.
import createClient from "openapi-fetch";
import type { paths } from "@org/webinar-types";
import { createSigningMiddleware } from "@org/webinar-client";

const api = createClient<paths>({ baseUrl: process.env.WEBINAR_BASE_URL! });
api.use(createSigningMiddleware({ apiKey: process.env.WEBINAR_API_KEY!, secret: process.env.WEBINAR_API_SECRET! }));

// Issuing invalidates the viewer's previous unused ticket: only the loginUrl of the latest answer works.
const { data, error } = await api.POST("/api/v1/open/viewers/login-tickets", {
  body: { uid: 10001, ticketCode: "WBN8K2QX" },
});
if (error) throw new Error(`${error.error.code}: ${error.error.message} (requestId ${error.requestId})`);
const { loginUrl, expiresAt } = data.data;
// Hand loginUrl to the user exactly as returned (a redirect or a link) before expiresAt; never write it to logs.
console.log(loginUrl, expiresAt);
