// Create or update the viewer of one of your users (POST /api/v1/open/viewers/upsert) with openapi-fetch, typed by
// @org/webinar-types and signed by the middleware of @org/webinar-client: every call gets a fresh nonce, timestamp
// and signature over the exact bytes sent. Env: WEBINAR_BASE_URL, WEBINAR_API_KEY, WEBINAR_API_SECRET.
import createClient from "openapi-fetch";
import type { paths } from "@org/webinar-types";
import { createSigningMiddleware } from "@org/webinar-client";

const api = createClient<paths>({ baseUrl: process.env.WEBINAR_BASE_URL! });
// Add the signing middleware last: it signs what the middlewares before it produced.
api.use(createSigningMiddleware({ apiKey: process.env.WEBINAR_API_KEY!, secret: process.env.WEBINAR_API_SECRET! }));

const { data, error } = await api.POST("/api/v1/open/viewers/upsert", {
  body: { externalUserId: "crm-10086", phone: "13800138000", displayName: "张三" },
});
if (error) {
  // Branch on error.code, never on the status: 409 means four different things here.
  console.error(`${error.error.code}: ${error.error.message} (requestId ${error.requestId})`);
  process.exitCode = 1;
} else {
  const { viewer, created } = data.data;
  console.log(created ? "created" : "existing", viewer); // keep viewer.uid for the ticket call
}
