/** `GET /healthz`: 200 while the database answers, 503 STORAGE_UNAVAILABLE while it does not. */
import { Hono } from "hono";
import { sql } from "kysely";
import type { AppEnv } from "../http/app-env";
import { jsonResponse } from "../http/respond";
import type { AppServices } from "../services";

export function createHealthApp(services: Pick<AppServices, "db" | "logger">): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.get("/healthz", async (c) => {
    const requestId = c.get("requestId");
    try {
      // The smallest statement there is; the builder has no table-less select.
      await sql`select 1`.execute(services.db);
      return jsonResponse(200, { requestId, status: "ok" });
    } catch (error) {
      services.logger.warn({ requestId, err: error }, "health check: database unavailable");
      c.set("errorCode", "STORAGE_UNAVAILABLE");
      const error_ = { code: "STORAGE_UNAVAILABLE", message: "the database is unavailable" };
      return jsonResponse(503, { requestId, status: "unavailable", error: error_ });
    }
  });
  return app;
}
