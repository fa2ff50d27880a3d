/**
 * Hono on Node: the app of Hono's getting-started page, its own routes as they were, and the four Webinar Open API
 * operations beside them. On Bun, Deno or Workers, export `app` (or `app.fetch`) instead of calling `serve`.
 *
 * Run: WEBINAR_API_KEY=wk_demo WEBINAR_API_SECRET=demo-secret PORT=3000 npx tsx hono.ts
 */
import { serve } from "@hono/node-server";
import { Hono } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { webinarHono, type WebinarEnv } from "@org/webinar-validator/hono";
import { answer, operationPaths } from "./operations.js";
import { verifier } from "./verifier.js";

const app = new Hono<WebinarEnv>();
const port = Number(process.env.PORT ?? 3000);

app.use(webinarHono(verifier));

app.get("/hello", (c) => c.text("Hello Hono!"));

app.post("/other", async (c) => c.json({ received: await c.req.json() }));

// The four operations. c.get("webinar") is the verified request: merchant, operation, validated body, request id.
for (const path of operationPaths) {
  app.post(path, async (c) => {
    const { status, body } = await answer(c.get("webinar"));
    return c.json(body, status as ContentfulStatusCode);
  });
}

serve({ fetch: app.fetch, port, hostname: "127.0.0.1" }, (info) => {
  console.log(`listening on http://127.0.0.1:${info.port}`);
});
