/**
 * The Hono test app, apart from the other runners so a Bun process (bun-server.ts, hono-on-bun.ts) loads Hono and
 * nothing else.
 */
import { Hono } from "hono";
import { webinarHono, type WebinarEnv } from "../../src/adapters/hono";
import { createRequestVerifier, type RequestVerifierOptions } from "../../src/index";
import { echo, operationPaths } from "./echo";

/** Hono as its getting-started page builds it, with the middleware and the app's own routes. */
export function createHonoApp(options: RequestVerifierOptions): Hono<WebinarEnv> {
  const app = new Hono<WebinarEnv>();
  app.use(webinarHono(createRequestVerifier(options)));
  app.get("/", (c) => c.text("Hello Hono!"));
  app.post("/other", async (c) => c.json({ received: (await c.req.json()) as unknown }));
  for (const path of operationPaths) app.post(path, (c) => c.json(echo(c.get("webinar"))));
  return app;
}
