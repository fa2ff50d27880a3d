/**
 * The watch page's HTTP surface under `/w/`: the API of watch-openapi.yaml (the ticket exchange, the page's state
 * and the playback API), every body checked against the document's schemas (watch/request-body.ts), and the page
 * at `/w/{ticketCode}` with its script, style and sample video under `/w/assets/`.
 */
import { type Context, Hono } from "hono";
import type { AppEnv } from "../http/app-env";
import { type AppServices, requestServices } from "../services";
import { dependencyStep } from "../dependency";
import { requestHeader } from "../http/request-header";
import { jsonResponse } from "../http/respond";
import { serveOperations } from "../http/serve-operations";
import { TICKET_CODE_PATTERN } from "../tickets/ticket-code";
import { ANON_COOKIE, ANON_COOKIE_MAX_AGE_SECONDS, isSecurePage, watchCookie } from "./cookies";
import { hlsScriptResponse } from "./hls-script";
import { pageScript } from "./page-script";
import { PAGE_STYLE } from "./page-style";
import { HLS_LIBRARY_PATH } from "./page/hls-library";
import { watchPage } from "./page.html";
import { heartbeatPlayback, startPlayback } from "./playback";
import { readWatchBody } from "./request-body";
import { rangeResponse, sampleVideo } from "./sample-video";
import { exchangeForSession, refuseExchangeBody } from "./session-exchange";
import { readWatchState } from "./state";
import { resolveWatchSubject } from "./subject";
import { createWatchSessions, type WatchSessions } from "./watch-sessions";
import { watchOperations } from "./watch-validators.gen.js";

const storageStep = <T>(step: () => Promise<T>) =>
  dependencyStep("STORAGE_UNAVAILABLE", "storage is temporarily unavailable", step);

type WatchOperationId = keyof typeof watchOperations;
type WatchHandler = (c: Context<AppEnv>, services: AppServices) => Promise<Response>;

/**
 * The handlers of watch-openapi.yaml's operations. A playback start that made an anonymous subject sets its cookie.
 * The process's watch sessions are read from memory (watch-sessions.ts), and heartbeats and stops are credited in
 * batches (the services' heartbeat batcher, heartbeat-batcher.ts). Each handler runs with the services as its
 * request uses them (`requestServices`, services.ts).
 */
function watchHandlers(sessions: WatchSessions): { [Id in WatchOperationId]: WatchHandler } {
  const depsOf = ({ db, runtime, config }: AppServices) => ({
    db,
    runtime,
    sessions,
    heartbeatIntervalSeconds: config.heartbeatIntervalSeconds,
  });
  const playbackStep =
    (operationId: "sendHeartbeat" | "stopPlayback"): WatchHandler =>
    async (c, services) => {
      const body = await readWatchBody(c, operationId);
      const { subject } = await storageStep(() =>
        resolveWatchSubject(depsOf(services), requestHeader(c, "cookie"), body.ticketCode, false),
      );
      const result = await storageStep(() =>
        heartbeatPlayback(services.heartbeats, subject, body, operationId === "stopPlayback"),
      );
      return jsonResponse(200, { requestId: c.get("requestId"), ...result });
    };
  return {
    exchangeLoginTicket: async (c, services) => {
      const body = await readWatchBody(c, "exchangeLoginTicket", refuseExchangeBody);
      const result = await exchangeForSession(
        body,
        services,
        isSecurePage(c.req.url, services.config.publicWatchOrigin),
      );
      return jsonResponse(200, { requestId: c.get("requestId"), ...result.body }, { "Set-Cookie": result.setCookie });
    },
    getWatchState: async (c, services) => {
      const state = await storageStep(() =>
        readWatchState(
          { sessions, webinars: services.webinars, heartbeatIntervalSeconds: services.config.heartbeatIntervalSeconds },
          requestHeader(c, "cookie"),
          c.req.query("ticketCode"),
        ),
      );
      return jsonResponse(200, { requestId: c.get("requestId"), ...state });
    },
    startPlayback: async (c, services) => {
      const body = await readWatchBody(c, "startPlayback");
      const deps = depsOf(services);
      const { subject, newAnonymousId } = await storageStep(() =>
        resolveWatchSubject(deps, requestHeader(c, "cookie"), body.ticketCode, true),
      );
      const result = await storageStep(() => startPlayback(deps, subject, body));
      const secure = isSecurePage(c.req.url, services.config.publicWatchOrigin);
      const headers: Record<string, string> =
        newAnonymousId === undefined
          ? {}
          : { "Set-Cookie": watchCookie(ANON_COOKIE, newAnonymousId, ANON_COOKIE_MAX_AGE_SECONDS, secure) };
      return jsonResponse(200, { requestId: c.get("requestId"), ...result }, headers);
    },
    sendHeartbeat: playbackStep("sendHeartbeat"),
    stopPlayback: playbackStep("stopPlayback"),
  };
}

export function createWatchApp(services: AppServices): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const handlers = watchHandlers(createWatchSessions({ db: services.db, runtime: services.runtime }));
  serveOperations(app, {
    operations: watchOperations,
    prefix: "/w/api/",
    noun: "watch",
    answer: (c, operationId) => handlers[operationId](c, requestServices(c, services)),
  });
  app.get(`/w/:ticketCode{${TICKET_CODE_PATTERN}}`, (c) =>
    watchPage(services.webinars, c.req.param("ticketCode"), requestHeader(c, "accept-language")),
  );
  app.get(
    "/w/assets/watch.js",
    () => new Response(pageScript(), { headers: { "Content-Type": "text/javascript; charset=utf-8" } }),
  );
  app.get(
    "/w/assets/watch.css",
    () => new Response(PAGE_STYLE, { headers: { "Content-Type": "text/css; charset=utf-8" } }),
  );
  app.get(HLS_LIBRARY_PATH, () => hlsScriptResponse());
  app.get("/w/assets/sample.webm", (c) =>
    rangeResponse(sampleVideo(), "video/webm", requestHeader(c, "range"), c.req.method),
  );
  return app;
}
