/**
 * The watch page's HTTP surface under `/w/`: the API of watch-openapi.yaml (the ticket exchange, the page's state
 * and the playback API), every body checked against the document's schemas (watch/request-body.ts), and the page
 * at `/w/{ticketCode}` with its script, style and sample video under `/w/assets/`.
 */
import { Hono } from "hono";
import type { AppEnv } from "../http/app-env";
import { dependencyStep } from "../dependency";
import { ServiceError } from "../errors";
import { jsonResponse } from "../http/respond";
import type { AppServices } from "../services";
import { TICKET_CODE_PATTERN } from "../tickets/ticket-code";
import { ANON_COOKIE, ANON_COOKIE_MAX_AGE_SECONDS, isSecurePage, watchCookie } from "./cookies";
import { pageScript } from "./page-script";
import { PAGE_STYLE } from "./page-style";
import { watchPage } from "./page.html";
import { heartbeatPlayback, startPlayback } from "./playback";
import { readWatchBody } from "./request-body";
import { rangeResponse, sampleVideo } from "./sample-video";
import { exchangeForSession, refuseExchangeBody } from "./session-exchange";
import { readWatchState } from "./state";
import { resolveWatchSubject } from "./subject";
import { createWatchSessions, type WatchSessions } from "./watch-sessions";

const storageStep = <T>(step: () => Promise<T>) =>
  dependencyStep("STORAGE_UNAVAILABLE", "storage is temporarily unavailable", step);

const methodNotAllowed = () => {
  throw new ServiceError("REQUEST_INVALID", "method not allowed", undefined, 405);
};

/**
 * `POST /w/api/playback/start|heartbeat|stop`: the body, the subject, then the step; a start that made an
 * anonymous subject sets its cookie. The process's watch sessions are read from memory (watch-sessions.ts), and its
 * heartbeats and stops are credited in batches (the services' heartbeat batcher, heartbeat-batcher.ts).
 */
function addPlaybackRoutes(app: Hono<AppEnv>, services: AppServices, sessions: WatchSessions): void {
  const { db, runtime, heartbeats } = services;
  const deps = { db, runtime, sessions };
  app.post("/w/api/playback/start", async (c) => {
    const requestId = c.get("requestId");
    const body = await readWatchBody(c, "startPlayback");
    const { subject, newAnonymousId } = await storageStep(() =>
      resolveWatchSubject(deps, c.req.header("cookie"), body.ticketCode, true),
    );
    const result = await storageStep(() => startPlayback(deps, subject, body));
    const secure = isSecurePage(c.req.url, services.config.publicWatchOrigin);
    const headers: Record<string, string> =
      newAnonymousId === undefined
        ? {}
        : { "Set-Cookie": watchCookie(ANON_COOKIE, newAnonymousId, ANON_COOKIE_MAX_AGE_SECONDS, secure) };
    return jsonResponse(200, { requestId, ...result }, headers);
  });
  for (const [action, operationId] of [
    ["heartbeat", "sendHeartbeat"],
    ["stop", "stopPlayback"],
  ] as const) {
    app.post(`/w/api/playback/${action}`, async (c) => {
      const requestId = c.get("requestId");
      const body = await readWatchBody(c, operationId);
      const { subject } = await storageStep(() =>
        resolveWatchSubject(deps, c.req.header("cookie"), body.ticketCode, false),
      );
      const result = await storageStep(() => heartbeatPlayback(heartbeats, subject, body, action === "stop"));
      return jsonResponse(200, { requestId, ...result });
    });
  }
  for (const action of ["start", "heartbeat", "stop"]) app.all(`/w/api/playback/${action}`, methodNotAllowed);
}

export function createWatchApp(services: AppServices): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const sessions = createWatchSessions({ db: services.db, runtime: services.runtime });

  app.post("/w/api/session", async (c) => {
    const requestId = c.get("requestId");
    const body = await readWatchBody(c, "exchangeLoginTicket", refuseExchangeBody);
    const secure = isSecurePage(c.req.url, services.config.publicWatchOrigin);
    const result = await exchangeForSession(body, services, secure);
    return jsonResponse(200, { requestId, ...result.body }, { "Set-Cookie": result.setCookie });
  });
  app.all("/w/api/session", methodNotAllowed);

  app.get("/w/api/state", async (c) => {
    c.set("operationId", "getWatchState");
    const requestId = c.get("requestId");
    const state = await storageStep(() =>
      readWatchState({ sessions, webinars: services.webinars }, c.req.header("cookie"), c.req.query("ticketCode")),
    );
    return jsonResponse(200, { requestId, ...state });
  });
  app.all("/w/api/state", methodNotAllowed);

  addPlaybackRoutes(app, services, sessions);

  app.get(`/w/:ticketCode{${TICKET_CODE_PATTERN}}`, (c) => watchPage(services.webinars, c.req.param("ticketCode")));
  app.get(
    "/w/assets/watch.js",
    () => new Response(pageScript(), { headers: { "Content-Type": "text/javascript; charset=utf-8" } }),
  );
  app.get(
    "/w/assets/watch.css",
    () => new Response(PAGE_STYLE, { headers: { "Content-Type": "text/css; charset=utf-8" } }),
  );
  app.get("/w/assets/sample.webm", (c) =>
    rangeResponse(sampleVideo(), "video/webm", c.req.header("range"), c.req.method),
  );
  return app;
}
