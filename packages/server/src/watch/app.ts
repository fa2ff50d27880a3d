/**
 * The watch page's HTTP surface under `/w/`: the page at `/w/{ticketCode}` with its style, script and sample
 * video under `/w/assets/`, the ticket exchange (`POST /w/api/session`), the page's state (`GET /w/api/state`)
 * and the playback API (`POST /w/api/playback/start|heartbeat|stop`, watch/playback.ts).
 */
import { Hono } from "hono";
import type { AppEnv } from "../app";
import { dependencyStep } from "../dependency";
import { ServiceError } from "../errors";
import { parseJsonObjectBody } from "../http/json-object-body";
import { readBodyText } from "../http/read-body";
import { jsonResponse } from "../http/respond";
import type { AppServices } from "../services";
import { watchPage } from "./page.html";
import { PAGE_SCRIPT } from "./page-script";
import { PAGE_STYLE } from "./page-style";
import { rangeResponse, sampleVideo } from "./sample-video";
import { readWatchState } from "./state";
import { ANON_COOKIE, heartbeatPlayback, resolveViewer, startPlayback } from "./playback";
import { exchangeForSession, parseExchangeBody } from "./session-exchange";

/** Bodies of the exchange and the playback API are small JSON documents. */
const SMALL_BODY_BYTES = 64 * 1024;

export function createWatchApp(services: AppServices): Hono<AppEnv> {
  const { config } = services;
  const app = new Hono<AppEnv>();

  app.post("/w/api/session", async (c) => {
    const requestId = c.get("requestId");
    if (!/^application\/json\s*(;|$)/i.test(c.req.header("content-type") ?? "")) {
      throw new ServiceError("REQUEST_INVALID", "Content-Type must be application/json");
    }
    const body = parseExchangeBody(await readBodyText(c.req.raw, SMALL_BODY_BYTES));
    const secure =
      new URL(c.req.url).protocol === "https:" || (config.publicWatchOrigin?.startsWith("https:") ?? false);
    const result = await exchangeForSession(body, services, secure);
    return jsonResponse(200, { requestId, ...result.body }, { "Set-Cookie": result.setCookie });
  });
  app.all("/w/api/session", () => {
    throw new ServiceError("REQUEST_INVALID", "method not allowed", undefined, 405);
  });
  app.get("/w/:ticketCode{[A-Za-z0-9_-]{1,64}}", (c) => watchPage(services.db, c.req.param("ticketCode")));

  app.get(
    "/w/assets/watch.js",
    () => new Response(PAGE_SCRIPT, { headers: { "Content-Type": "text/javascript; charset=utf-8" } }),
  );
  app.get(
    "/w/assets/watch.css",
    () => new Response(PAGE_STYLE, { headers: { "Content-Type": "text/css; charset=utf-8" } }),
  );
  app.get("/w/assets/sample.webm", (c) =>
    rangeResponse(sampleVideo(), "video/webm", c.req.header("range"), c.req.method),
  );

  app.get("/w/api/state", async (c) => {
    const requestId = c.get("requestId");
    const state = await dependencyStep("STORAGE_UNAVAILABLE", "storage is temporarily unavailable", () =>
      readWatchState({ db: services.db, runtime: services.runtime }, c.req.header("cookie"), c.req.query("ticketCode")),
    );
    return jsonResponse(200, { requestId, ...state });
  });

  // The playback API (watch/playback.ts): start, heartbeat, stop.
  const playbackDeps = { db: services.db, runtime: services.runtime };
  const playbackKeys = {
    start: ["mode", "protocol", "deviceType", "ticketCode"],
    heartbeat: ["playbackId", "playing", "ticketCode"],
    stop: ["playbackId", "playing", "ticketCode"],
  } as const;
  for (const action of ["start", "heartbeat", "stop"] as const) {
    app.post(`/w/api/playback/${action}`, async (c) => {
      const requestId = c.get("requestId");
      if (!/^application\/json\s*(;|$)/i.test(c.req.header("content-type") ?? "")) {
        throw new ServiceError("REQUEST_INVALID", "Content-Type must be application/json");
      }
      const body = parseJsonObjectBody(await readBodyText(c.req.raw, SMALL_BODY_BYTES), playbackKeys[action]);
      const { viewer, newAnonymousId } = await dependencyStep(
        "STORAGE_UNAVAILABLE",
        "storage is temporarily unavailable",
        () => resolveViewer(playbackDeps, c.req.header("cookie"), body.ticketCode, action === "start"),
      );
      const result =
        action === "start"
          ? await dependencyStep("STORAGE_UNAVAILABLE", "storage is temporarily unavailable", () =>
              startPlayback(playbackDeps, viewer, body),
            )
          : await dependencyStep("STORAGE_UNAVAILABLE", "storage is temporarily unavailable", () =>
              heartbeatPlayback(playbackDeps, viewer, body, action === "stop"),
            );
      const secure =
        new URL(c.req.url).protocol === "https:" || (config.publicWatchOrigin?.startsWith("https:") ?? false);
      const headers: Record<string, string> =
        newAnonymousId === undefined
          ? {}
          : {
              "Set-Cookie": `${ANON_COOKIE}=${newAnonymousId}; Path=/w; Max-Age=31536000; HttpOnly; SameSite=Lax${secure ? "; Secure" : ""}`,
            };
      return jsonResponse(200, { requestId, ...result }, headers);
    });
    app.all(`/w/api/playback/${action}`, () => {
      throw new ServiceError("REQUEST_INVALID", "method not allowed", undefined, 405);
    });
  }

  return app;
}
