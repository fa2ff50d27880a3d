/**
 * watch-openapi.yaml is what the watch page's API is: its operations are the watch app's JSON routes, its
 * schemas decide what a body may be (the exchange answering a ticket it cannot use with 401, at no database round
 * trip), its patterns are the shapes the server issues, its numbers are the server's, and every answer of a walk
 * through the API, on a real server, is valid against the document's schema for its status. (Drift, examples and
 * patterns of both server documents: server-documents.test.ts.)
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AppServices } from "../src/services";
import { systemRuntime } from "../src/runtime";
import { LOGIN_TICKET_PREFIX } from "../src/tickets/issue";
import { newToken } from "../src/tickets/token";
import { createWatchApp } from "../src/watch/app";
import { HEARTBEAT_INTERVAL_SECONDS } from "../src/config";
import { refuseExchangeBody } from "../src/watch/session-exchange";
import { watchBodyValidators, watchPatternMessages } from "../src/watch/watch-validators.gen.js";
import { bodyChecker } from "../src/http/body-check";
import { createDocumentAjv, loadServerDocument } from "../scripts/server-document";
import { openTestDatabase, type TestDatabase } from "./support/databases";
import { startTestServer, type Merchant, type TestServer } from "./support/harness";

const watch = loadServerDocument("watch");
const document = watch.document as Record<string, any>;
const schemas = document.components.schemas;
const checkBody = bodyChecker({ validators: watchBodyValidators, patternMessages: watchPatternMessages });

/** The watch app's routes; building them reads no service. */
const watchRoutes = createWatchApp({ config: {} } as AppServices).routes;

describe("watch-openapi.yaml", () => {
  it("its operations are the watch app's JSON routes; its description names every file the app serves", () => {
    const api = watchRoutes
      .filter(({ method, path }) => method !== "ALL" && path.startsWith("/w/api/"))
      .map(({ method, path }) => `${method} ${path}`);
    expect(api.sort()).toEqual(watch.operations.map(({ method, path }) => `${method} ${path}`).sort());
    for (const { method, path } of watchRoutes.filter((route) => route.path.startsWith("/w/assets/")))
      expect(document.info.description).toContain(`\`${method} ${path}\``);
    expect(document.info.description).toContain("`GET /w/{ticketCode}`");
  });

  it("its patterns are the shapes the server issues: login tickets and playback ids", () => {
    const loginTicket = new RegExp(schemas.LoginTicket.pattern, "u");
    for (let i = 0; i < 50; i += 1) expect(newToken(LOGIN_TICKET_PREFIX, systemRuntime).token).toMatch(loginTicket);
    expect(schemas.PlaybackId.pattern).toBe("^pb_[A-Za-z0-9]{22}$");
  });

  it("states the server's heartbeat interval and the cap of twice it", () => {
    const start = document.paths["/w/api/playback/start"].post.responses["200"].content["application/json"];
    expect(start.example.heartbeatIntervalSeconds).toBe(HEARTBEAT_INTERVAL_SECONDS);
    const playback = document.tags.find((tag: { name: string }) => tag.name === "Playback").description as string;
    expect(playback).toContain(`${HEARTBEAT_INTERVAL_SECONDS} seconds`);
    expect(playback).toContain(`twice the interval: ${2 * HEARTBEAT_INTERVAL_SECONDS} seconds`);
  });

  const ticket = `lt_${"A".repeat(43)}`;
  it.each([
    ["a valid body", { ticketCode: "wbn-1", loginTicket: ticket }, undefined],
    ["no ticket", { ticketCode: "wbn-1" }, "LOGIN_TICKET_INVALID"],
    ["a ticket that is not a string", { ticketCode: "wbn-1", loginTicket: 12 }, "LOGIN_TICKET_INVALID"],
    ["a ticket not of the issued shape", { ticketCode: "wbn-1", loginTicket: "lt_x" }, "LOGIN_TICKET_INVALID"],
    ["a malformed ticketCode", { ticketCode: "a/b", loginTicket: ticket }, "LOGIN_TICKET_INVALID"],
    ["an unknown field", { ticketCode: "wbn-1", loginTicket: ticket, extra: 1 }, "REQUEST_INVALID"],
    ["an unknown field beside a bad ticket", { loginTicket: 1, extra: 1 }, "REQUEST_INVALID"],
    ["a body that is not an object", ["lt_x"], "REQUEST_INVALID"],
  ])("exchangeLoginTicket, %s: %s", (_label, body, code) => {
    const issues = checkBody("exchangeLoginTicket", body);
    expect(issues.length === 0 ? undefined : refuseExchangeBody(issues).code).toBe(code);
  });

  it.each([
    [
      "startPlayback: a mode outside the enum",
      "startPlayback",
      { mode: "PAUSED", protocol: "HLS", deviceType: "DESKTOP" },
      [{ pointer: "/mode", rule: "enum", message: 'must be one of "LIVE", "REPLAY"' }],
    ],
    [
      "startPlayback: a ticketCode not of the Open API's shape",
      "startPlayback",
      { mode: "LIVE", protocol: "HLS", deviceType: "DESKTOP", ticketCode: "a b" },
      [{ pointer: "/ticketCode", rule: "pattern", message: "must contain only letters, digits, _ and -" }],
    ],
    [
      "sendHeartbeat: playing is required and a boolean; playbackId as the start returned it",
      "sendHeartbeat",
      { playbackId: "pb_1", playing: "yes" },
      [
        { pointer: "/playbackId", rule: "pattern", message: "must be a playbackId as the start returned it" },
        { pointer: "/playing", rule: "type", message: "must be boolean" },
      ],
    ],
    ["stopPlayback: playing may be left out", "stopPlayback", { playbackId: "pb_0000000000000000000000" }, []],
  ] as const)("body check: %s", (_label, operationId, body, issues) => {
    expect(checkBody(operationId, body)).toEqual(issues);
  });
});

describe("a walk through the watch page's API: every answer is valid against the document", () => {
  let database: TestDatabase;
  let api: TestServer;
  let merchant: Merchant;
  const ajv = createDocumentAjv();

  /** Calls the API and checks the answer against the operation's schema for its status. */
  async function call(operationId: string, init: { body?: unknown; cookie?: string; query?: string } = {}) {
    const operation = watch.operations.find((candidate) => candidate.operationId === operationId)!;
    const response = await fetch(`${api.url}${operation.path}${init.query ?? ""}`, {
      method: operation.method,
      headers: {
        ...(init.body === undefined ? {} : { "content-type": "application/json" }),
        ...(init.cookie === undefined ? {} : { cookie: init.cookie }),
      },
      ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
    });
    const body = (await response.json()) as any;
    const schema = operation.responseSchemas[String(response.status)];
    expect(schema, `${operationId} documents status ${response.status}`).toBeDefined();
    const validate = ajv.compile(schema!);
    expect(validate(body) ? [] : validate.errors, `${operationId} ${response.status}`).toEqual([]);
    expect(body.requestId).toBe(response.headers.get("x-request-id"));
    return { status: response.status, body, setCookie: response.headers.get("set-cookie") };
  }

  beforeAll(async () => {
    database = await openTestDatabase("pglite", "watch_document");
    api = await startTestServer(database);
    merchant = await api.newMerchant();
  });
  afterAll(async () => {
    await api?.close();
    await database?.close();
  });

  it("another method on an operation's path: 405 REQUEST_INVALID", async () => {
    for (const { method, path } of watch.operations) {
      const response = await fetch(`${api.url}${path}`, { method: method === "GET" ? "POST" : "GET" });
      expect(response.status, `${path}`).toBe(405);
      expect(((await response.json()) as any).error.code).toBe("REQUEST_INVALID");
    }
  });

  it("sign in, read the state, start, beat, stop; and the refusals of each", async () => {
    const code = merchant.ticketCode;
    const { viewer } = await merchant.client.upsertViewer({ externalUserId: "document-walk-1" });
    const { loginTicket } = await merchant.client.issueLoginTicket({ uid: viewer.uid, ticketCode: code });
    expect((await call("exchangeLoginTicket", { body: { ticketCode: code, loginTicket: 1 } })).status).toBe(401);
    expect((await call("exchangeLoginTicket", { body: { ticketCode: code, extra: 1 } })).status).toBe(400);
    const session = await call("exchangeLoginTicket", { body: { ticketCode: code, loginTicket } });
    expect(session.status).toBe(200);
    const used = await call("exchangeLoginTicket", { body: { ticketCode: code, loginTicket } });
    expect(used.body.error).toMatchObject({ code: "LOGIN_TICKET_INVALID", details: { reason: "USED" } });
    const cookie = session.setCookie!.split(";")[0]!;

    expect((await call("getWatchState", { query: `?ticketCode=${code}` })).status).toBe(401);
    const scheduled = await call("getWatchState", { query: `?ticketCode=${code}`, cookie });
    expect(scheduled.body).toMatchObject({ state: "SCHEDULED", mode: null, videoUrl: null });

    const start = { mode: "LIVE", protocol: "HLS", deviceType: "DESKTOP" };
    const notLive = await call("startPlayback", { body: start, cookie });
    expect(notLive.body.error).toMatchObject({
      code: "PLAYBACK_NOT_AVAILABLE",
      details: { liveStatus: "NOT_STARTED" },
    });
    expect((await api.admin("POST", `/admin/v1/webinars/${code}/live`, { action: "START" })).status).toBe(200);
    expect((await call("getWatchState", { query: `?ticketCode=${code}`, cookie })).body.mode).toBe("LIVE");
    expect((await call("startPlayback", { body: { ...start, mode: "NIGHT" }, cookie })).status).toBe(400);
    expect((await call("startPlayback", { body: start })).status).toBe(401);
    const started = await call("startPlayback", { body: start, cookie });
    const { playbackId } = started.body;
    expect((await call("sendHeartbeat", { body: { playbackId, playing: true }, cookie })).status).toBe(200);
    expect((await call("stopPlayback", { body: { playbackId }, cookie })).body.ended).toBe(true);
    const someoneElse = await call("sendHeartbeat", {
      body: { playbackId: `pb_${"0".repeat(22)}`, playing: true },
      cookie,
    });
    expect(someoneElse.body.error.code).toBe("PLAYBACK_NOT_FOUND");

    const anonymous = await call("startPlayback", { body: { ...start, ticketCode: code } });
    expect(anonymous.setCookie).toMatch(/^webinar_anon=anon_\w+; Max-Age=31536000; Path=\/w; HttpOnly; SameSite=Lax$/);
    const unknownWebinar = await call("startPlayback", { body: { ...start, ticketCode: "no-such-webinar" } });
    expect(unknownWebinar.body.error.code).toBe("WEBINAR_NOT_FOUND");
  });
});
