/**
 * The admin API (admin-openapi.yaml) as a Hono sub-app: one route per document operation (admin/routes.ts), 405
 * for another method on an operation's path and 404 for any other `/admin/` path, both only after the admin token
 * was checked (an unauthorized caller learns nothing about the paths).
 */
import { Hono, type Context } from "hono";
import { ServiceError } from "../errors";
import type { AppEnv } from "../http/app-env";
import { readBodyText, SMALL_BODY_BYTES } from "../http/read-body";
import { jsonResponse } from "../http/respond";
import type { AppServices } from "../services";
import { authorizeAdmin } from "./authorize";
import { adminRoutes, createAdminRunner } from "./routes";

export function createAdminApp(services: AppServices): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const runAdmin = createAdminRunner(services);
  const routes = adminRoutes();
  for (const route of routes) {
    app.on(route.method, route.path, async (c) => {
      c.set("operationId", route.operationId);
      const requestId = c.get("requestId");
      const text = await readBodyText(c, SMALL_BODY_BYTES);
      const params = c.req.param() as Record<string, string>;
      const result = await runAdmin(
        route.operationId,
        params,
        text,
        c.req.header("content-type"),
        c.req.header("authorization"),
        new URL(c.req.url).origin,
      );
      return jsonResponse(result.status, { ...result.body, requestId });
    });
  }
  const refuse = (status: 404 | 405) => async (c: Context<AppEnv>) => {
    authorizeAdmin(c.req.header("authorization"), services.config.adminToken);
    throw new ServiceError(
      "REQUEST_INVALID",
      status === 404 ? "no admin operation at this path" : "method not allowed",
      undefined,
      status,
    );
  };
  for (const path of new Set(routes.map((route) => route.path))) app.all(path, refuse(405));
  app.all("/admin/*", refuse(404));
  return app;
}
