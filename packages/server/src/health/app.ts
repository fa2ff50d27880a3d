/**
 * `GET /healthz`, liveness: 200 while the database answers, 503 STORAGE_UNAVAILABLE while it does not.
 * `GET /readyz`, readiness for a load balancer: 200 when the database answers and has every migration of this
 * build applied, 503 STORAGE_UNAVAILABLE otherwise.
 */
import { Hono, type Context } from "hono";
import { sql } from "kysely";
import { migrations } from "../db/migrations";
import type { AppEnv } from "../http/app-env";
import { type AppServices, requestServices } from "../services";
import { jsonResponse } from "../http/respond";

/** The last migration of this build: the schema is current when it is recorded as applied. */
const LATEST_MIGRATION = Object.keys(migrations).at(-1) ?? "";

function unavailable(c: Context<AppEnv>, message: string): Response {
  c.set("errorCode", "STORAGE_UNAVAILABLE");
  const error = { code: "STORAGE_UNAVAILABLE", message };
  return jsonResponse(503, { requestId: c.get("requestId"), status: "unavailable", error });
}

export function createHealthApp(services: Pick<AppServices, "db" | "logger" | "tracing">): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.get("/healthz", async (c) => {
    c.set("operationId", "checkHealth");
    const requestId = c.get("requestId");
    try {
      // The smallest statement there is; the builder has no table-less select.
      await sql`select 1`.execute(requestServices(c, services).db);
      return jsonResponse(200, { requestId, status: "ok" });
    } catch (error) {
      services.logger.warn({ requestId, err: error }, "health check: database unavailable");
      return unavailable(c, "the database is unavailable");
    }
  });
  app.get("/readyz", async (c) => {
    c.set("operationId", "checkReadiness");
    const requestId = c.get("requestId");
    let applied: boolean;
    try {
      // Kysely's Migrator records each applied migration in this table (db/migrations.ts).
      const { rows } = await sql`select 1 from kysely_migration where name = ${LATEST_MIGRATION}`.execute(
        requestServices(c, services).db,
      );
      applied = rows.length === 1;
    } catch (error) {
      services.logger.warn({ requestId, err: error }, "readiness check: database unavailable");
      return unavailable(c, "the database is unavailable");
    }
    if (!applied) return unavailable(c, `the database schema lacks migration ${LATEST_MIGRATION}`);
    return jsonResponse(200, { requestId, status: "ready" });
  });
  return app;
}
