/**
 * The admin API (admin-openapi.yaml) as a Hono sub-app: one route per document operation (admin/routes.ts), 405
 * for another method on an operation's path and 404 for any other `/admin/` path, both only after the admin token
 * was checked (an unauthorized caller learns nothing about the paths).
 */
import { Hono } from "hono";
import type { AppEnv } from "../http/app-env";
import { type AppServices, requestServices } from "../services";
import { readBodyText, SMALL_BODY_BYTES } from "../http/read-body";
import { requestHeader } from "../http/request-header";
import { jsonResponse } from "../http/respond";
import { serveOperations } from "../http/serve-operations";
import { adminOperations } from "@org/webinar-admin-contract/validators";
import { authorizeAdmin } from "./authorize";
import { runAdmin } from "./routes";

export function createAdminApp(services: AppServices): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  serveOperations(app, {
    operations: adminOperations,
    prefix: "/admin/",
    noun: "admin",
    beforeRefusal: (c) => authorizeAdmin(requestHeader(c, "authorization"), services.config.adminToken),
    async answer(c, operationId) {
      const text = await readBodyText(c, SMALL_BODY_BYTES);
      const result = await runAdmin(
        requestServices(c, services),
        operationId,
        c.req.param() as Record<string, string>,
        text,
        requestHeader(c, "content-type"),
        requestHeader(c, "authorization"),
        new URL(c.req.url).origin,
      );
      return jsonResponse(result.status, { ...result.body, requestId: c.get("requestId") });
    },
  });
  return app;
}
