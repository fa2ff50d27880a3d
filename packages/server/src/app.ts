/**
 * The HTTP surface, composed of five sub-apps: `health` (`/healthz`), `admin` (`/admin/...`), `watch` (`/w/...`),
 * `console` (`/console/...`) and, for every other request, `openapi`. The Open API comes last and takes every remaining path, so whatever a
 * client sends (unknown paths, other letter case, encoded or dotted variants of an operation path) reaches the
 * validator's middleware with the request target exactly as received: the validator, not Hono's router, decides
 * 405 and 401 non-canonical path.
 */
import { Hono } from "hono";
import { createAdminApp } from "./admin/app";
import { createConsoleApp } from "./console/app";
import { createHealthApp } from "./health/app";
import { accessLog } from "./http/access-log";
import type { AppEnv } from "./http/app-env";
import { answerFailure } from "./http/failure";
import { observeRequests } from "./http/request-observation";
import { securityHeaders } from "./http/security-headers";
import { createOpenApiApp } from "./open-api/app";
import { requestSpans } from "./tracing/request-spans";
import type { AppServices } from "./services";
import { createWatchApp } from "./watch/app";

/**
 * The server's Hono app: one observation of each request (the access log, the services' other observers such as
 * the metrics, and the request's span when tracing is on), and security headers, around the sub-apps; thrown
 * errors become envelopes.
 */
export function createApp(services: AppServices): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const spans = services.tracing === undefined ? undefined : requestSpans(services.tracing.tracer);
  const observers = [accessLog(services.logger), ...services.requestObservers];
  app.use("*", observeRequests(spans === undefined ? observers : [...observers, spans.close]));
  if (spans !== undefined) app.use("*", spans.open);
  app.use("*", securityHeaders);
  app.onError((error, c) => answerFailure(c, services.logger, c.get("requestId"), error));
  app.route("/", createHealthApp(services));
  app.route("/", createAdminApp(services));
  app.route("/", createWatchApp(services));
  app.route("/", createConsoleApp(services));
  app.route("/", createOpenApiApp(services));
  return app;
}
