/**
 * The admin API of admin-openapi.yaml, over HTTP, on PGlite and on PostgreSQL: bearer token, every operation
 * with its status and body, request-body validation against admin-openapi.yaml, 404/405, live lifecycle,
 * finalization, playback-session import and the blocked-terms list.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DATABASE_KINDS, openTestDatabase, type TestDatabase } from "./support/databases";
import { ADMIN_TOKEN, startTestServer, type Merchant, type TestServer } from "./support/harness";

describe.each(DATABASE_KINDS)("admin API on %s", (kind) => {
  let database: TestDatabase;
  let api: TestServer;
  let merchant: Merchant;

  beforeAll(async () => {
    database = await openTestDatabase(kind, "admin");
    api = await startTestServer(database);
    merchant = await api.newMerchant();
  });
  afterAll(async () => {
    await api?.close();
    await database?.close();
  });

  describe("authorization", () => {
    it.each([
      ["no token", null],
      ["a wrong token", "wrong-token-123"],
    ])("%s: 401 ADMIN_UNAUTHORIZED in the envelope, with X-Request-Id", async (_label, token) => {
      const answer = await api.admin("POST", "/admin/v1/merchants", { name: "x" }, token);
      expect(answer.status).toBe(401);
      expect(answer.body).toEqual({
        requestId: answer.headers.get("x-request-id"),
        error: { code: "ADMIN_UNAUTHORIZED", message: expect.any(String) },
      });
    });

    it("401 comes before 404 for unknown admin paths", async () => {
      expect((await api.admin("GET", "/admin/v1/nothing", undefined, null)).status).toBe(401);
    });

    it("without WEBINAR_ADMIN_TOKEN the admin API is disabled (401 for any token)", async () => {
      const closed = await startTestServer(database, { WEBINAR_ADMIN_TOKEN: "" });
      try {
        const answer = await closed.admin("POST", "/admin/v1/merchants", { name: "x" });
        expect(answer).toMatchObject({ status: 401, body: { error: { code: "ADMIN_UNAUTHORIZED" } } });
      } finally {
        await closed.close();
      }
    });
  });

  describe("merchants and keys", () => {
    it("POST /merchants: 201 {merchantId}", async () => {
      const answer = await api.admin("POST", "/admin/v1/merchants", {
        name: "Acme",
        watchOrigin: "https://watch.acme.test",
      });
      expect(answer.status).toBe(201);
      expect(answer.body.merchantId).toMatch(/^mch_/);
      expect(answer.body.requestId).toBe(answer.headers.get("x-request-id"));
    });

    it("POST /merchants/{id}/api-keys: 201 {apiKey, secret}, distinct values; an empty body is {}", async () => {
      const answer = await api.admin("POST", `/admin/v1/merchants/${merchant.merchantId}/api-keys`);
      expect(answer.status).toBe(201);
      expect(answer.body.apiKey).toMatch(/^wk_live_/);
      expect(answer.body.secret).toMatch(/^wsk_live_[A-Za-z0-9_-]{43}$/);
      expect(answer.body.secret).not.toBe(answer.body.apiKey);
    });

    it("POST /merchants/{id}/status: 200; unknown merchant 404 MERCHANT_NOT_FOUND", async () => {
      const other = await api.newMerchant();
      expect(
        await api.admin("POST", `/admin/v1/merchants/${other.merchantId}/status`, { status: "SUSPENDED" }),
      ).toMatchObject({
        status: 200,
        body: { merchantId: other.merchantId, status: "SUSPENDED" },
      });
      expect(await api.admin("POST", "/admin/v1/merchants/mch_missing/status", { status: "ACTIVE" })).toMatchObject({
        status: 404,
        body: { error: { code: "MERCHANT_NOT_FOUND" } },
      });
      expect(await api.admin("POST", "/admin/v1/merchants/mch_missing/api-keys", {})).toMatchObject({ status: 404 });
      expect(await api.admin("POST", "/admin/v1/merchants/mch_missing/webinars", {})).toMatchObject({ status: 404 });
    });

    it("POST /api-keys/{key}/revoke: 200, again 200; unknown 404 API_KEY_NOT_FOUND", async () => {
      const key = (await api.admin("POST", `/admin/v1/merchants/${merchant.merchantId}/api-keys`, {})).body
        .apiKey as string;
      expect(await api.admin("POST", `/admin/v1/api-keys/${key}/revoke`, {})).toMatchObject({
        status: 200,
        body: { apiKey: key, status: "REVOKED" },
      });
      expect((await api.admin("POST", `/admin/v1/api-keys/${key}/revoke`, {})).status).toBe(200);
      expect(await api.admin("POST", "/admin/v1/api-keys/wk_live_nothing/revoke", {})).toMatchObject({
        status: 404,
        body: { error: { code: "API_KEY_NOT_FOUND" } },
      });
    });
  });

  describe("webinars", () => {
    it("POST /merchants/{id}/webinars: generated ticketCode, default PUBLISHED; given ticketCode kept; globally unique (409)", async () => {
      const generated = await api.admin("POST", `/admin/v1/merchants/${merchant.merchantId}/webinars`, {});
      expect(generated.status).toBe(201);
      expect(generated.body.ticketCode).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
      const status = await database.handle.db
        .selectFrom("webinars")
        .select("status")
        .where("ticket_code", "=", generated.body.ticketCode)
        .executeTakeFirstOrThrow();
      expect(status.status).toBe("PUBLISHED");
      const code = `fixed-${kind}-${Date.now()}`;
      expect(
        await api.admin("POST", `/admin/v1/merchants/${merchant.merchantId}/webinars`, {
          ticketCode: code,
          title: "T",
          status: "DRAFT",
        }),
      ).toMatchObject({
        status: 201,
        body: { ticketCode: code },
      });
      const other = await api.newMerchant();
      expect(
        await api.admin("POST", `/admin/v1/merchants/${other.merchantId}/webinars`, { ticketCode: code }),
      ).toMatchObject({ status: 409, body: { error: { code: "TICKET_CODE_TAKEN" } } });
    });

    it("POST /webinars/{code}/status: 200 for each status; unknown 404 WEBINAR_NOT_FOUND", async () => {
      for (const status of ["DRAFT", "HIDDEN", "SUSPENDED", "PUBLISHED"]) {
        expect(await api.admin("POST", `/admin/v1/webinars/${merchant.ticketCode}/status`, { status })).toMatchObject({
          status: 200,
          body: { status },
        });
      }
      expect(await api.admin("POST", "/admin/v1/webinars/nope/status", { status: "DRAFT" })).toMatchObject({
        status: 404,
        body: { error: { code: "WEBINAR_NOT_FOUND" } },
      });
    });
  });

  describe("live lifecycle and finalization", () => {
    const newWebinar = async () =>
      (await api.admin("POST", `/admin/v1/merchants/${merchant.merchantId}/webinars`, {})).body.ticketCode as string;
    const live = (code: string, action: string) => api.admin("POST", `/admin/v1/webinars/${code}/live`, { action });

    it("START -> LIVE, END -> ENDED, each recorded; finalize then 200 with the first time kept", async () => {
      const code = await newWebinar();
      expect(await api.admin("POST", `/admin/v1/webinars/${code}/finalize`, {})).toMatchObject({
        status: 409,
        body: { error: { code: "LIVE_NOT_ENDED" } },
      });
      expect(await live(code, "START")).toMatchObject({ status: 200, body: { liveStatus: "LIVE" } });
      expect(await live(code, "START")).toMatchObject({ status: 200, body: { liveStatus: "LIVE" } });
      expect(await api.admin("POST", `/admin/v1/webinars/${code}/finalize`, {})).toMatchObject({ status: 409 });
      expect(await live(code, "END")).toMatchObject({ status: 200, body: { liveStatus: "ENDED" } });
      const first = await api.admin("POST", `/admin/v1/webinars/${code}/finalize`, {});
      expect(first).toMatchObject({
        status: 200,
        body: { ticketCode: code, liveStatus: "ENDED", finalizedAt: expect.stringMatching(/Z$/) },
      });
      const second = await api.admin("POST", `/admin/v1/webinars/${code}/finalize`);
      expect(second.body.finalizedAt).toBe(first.body.finalizedAt);
      const events = await database.handle.db
        .selectFrom("webinar_live_events as e")
        .innerJoin("webinars as w", "w.id", "e.webinar_id")
        .select(["e.action", "e.live_status"])
        .where("w.ticket_code", "=", code)
        .orderBy("e.occurred_at")
        .execute();
      expect(events).toEqual([
        { action: "START", live_status: "LIVE" },
        { action: "END", live_status: "ENDED" },
        // Finalized once, however often finalize is called.
        { action: "FINALIZE", live_status: "ENDED" },
      ]);
    });

    it.each([
      ["CANCEL before start", ["CANCEL"], "CANCELLED"],
      ["FAIL before start", ["FAIL"], "FAILED"],
      ["CANCEL while live", ["START", "CANCEL"], "CANCELLED"],
      ["FAIL while live", ["START", "FAIL"], "FAILED"],
    ])("%s", async (_label, actions, expected) => {
      const code = await newWebinar();
      let last: Awaited<ReturnType<typeof live>> | undefined;
      for (const action of actions) last = await live(code, action);
      expect(last).toMatchObject({ status: 200, body: { liveStatus: expected } });
      expect((await api.admin("POST", `/admin/v1/webinars/${code}/finalize`, {})).status).toBe(200);
    });

    it.each([
      ["END before start", [], "END"],
      ["START after end", ["START", "END"], "START"],
      ["END after cancel", ["CANCEL"], "END"],
    ])("%s: 409 LIVE_TRANSITION_INVALID", async (_label, before, action) => {
      const code = await newWebinar();
      for (const step of before) await live(code, step);
      expect(await live(code, action)).toMatchObject({
        status: 409,
        body: { error: { code: "LIVE_TRANSITION_INVALID" } },
      });
    });

    it("unknown webinar: 404", async () => {
      expect(await live("nope", "START")).toMatchObject({
        status: 404,
        body: { error: { code: "WEBINAR_NOT_FOUND" } },
      });
    });
  });

  describe("playback sessions", () => {
    it("records a registered and an anonymous session (201 {sessionId}); unknown uid 404 VIEWER_NOT_FOUND", async () => {
      const { viewer } = await merchant.client.upsertViewer({ externalUserId: "playback-1" });
      const path = `/admin/v1/webinars/${merchant.ticketCode}/playback-sessions`;
      const registered = await api.admin("POST", path, {
        subject: { uid: viewer.uid },
        mode: "LIVE",
        watchSeconds: 1800,
        deviceType: "DESKTOP",
        protocol: "WEBRTC",
        startedAt: "2026-11-21T08:00:00Z",
      });
      expect(registered).toMatchObject({ status: 201, body: { sessionId: expect.stringMatching(/^ps_/) } });
      const anonymous = await api.admin("POST", path, {
        subject: { anonymousId: "anon-42" },
        mode: "REPLAY",
        watchSeconds: 60,
      });
      expect(anonymous.status).toBe(201);
      const rows = await database.handle.db
        .selectFrom("playback_sessions")
        .selectAll()
        .where("id", "in", [registered.body.sessionId, anonymous.body.sessionId])
        .orderBy("watch_seconds", "desc")
        .execute();
      expect(
        rows.map((row) => [row.uid, row.anonymous_id, row.mode, row.watch_seconds, row.device_type, row.protocol]),
      ).toEqual([
        [viewer.uid, null, "LIVE", 1800, "DESKTOP", "WEBRTC"],
        [null, "anon-42", "REPLAY", 60, "UNKNOWN", null],
      ]);
      expect(new Date(rows[0]!.started_at).toISOString()).toBe("2026-11-21T08:00:00.000Z");
      expect(await api.admin("POST", path, { subject: { uid: 10_000 }, mode: "LIVE", watchSeconds: 1 })).toMatchObject({
        status: 404,
        body: { error: { code: "VIEWER_NOT_FOUND" } },
      });
    });
  });

  describe("request bodies are validated against admin-openapi.yaml", () => {
    it.each([
      ["missing name", "/admin/v1/merchants", {}, "/name", "required"],
      ["unknown field", "/admin/v1/merchants", { name: "x", extra: 1 }, "/extra", "additionalProperties"],
      [
        "watchOrigin with a path",
        "/admin/v1/merchants",
        { name: "x", watchOrigin: "https://a.test/w" },
        "/watchOrigin",
        "pattern",
      ],
      ["blank name", "/admin/v1/merchants", { name: "  " }, "/name", "pattern"],
      ["status not in the enum", "/admin/v1/merchants/MID/status", { status: "PAUSED" }, "/status", "enum"],
      ["api-keys with a field", "/admin/v1/merchants/MID/api-keys", { note: "x" }, "/note", "additionalProperties"],
      [
        "webinar ticketCode with a slash",
        "/admin/v1/merchants/MID/webinars",
        { ticketCode: "a/b" },
        "/ticketCode",
        "pattern",
      ],
      ["live action unknown", "/admin/v1/webinars/CODE/live", { action: "PAUSE" }, "/action", "enum"],
      [
        "playback subject with both ids",
        "/admin/v1/webinars/CODE/playback-sessions",
        { subject: { uid: 10000, anonymousId: "a" }, mode: "LIVE", watchSeconds: 1 },
        "/subject",
        "oneOf",
      ],
      [
        "playback negative seconds",
        "/admin/v1/webinars/CODE/playback-sessions",
        { subject: { anonymousId: "a" }, mode: "LIVE", watchSeconds: -1 },
        "/watchSeconds",
        "minimum",
      ],
      [
        "playback seconds as a string",
        "/admin/v1/webinars/CODE/playback-sessions",
        { subject: { anonymousId: "a" }, mode: "LIVE", watchSeconds: "1" },
        "/watchSeconds",
        "type",
      ],
      [
        "playback startedAt not a time",
        "/admin/v1/webinars/CODE/playback-sessions",
        { subject: { anonymousId: "a" }, mode: "LIVE", watchSeconds: 1, startedAt: "yesterday" },
        "/startedAt",
        "pattern",
      ],
      ["terms not an array", "/admin/v1/moderation/blocked-terms", { terms: "spam" }, "/terms", "type"],
    ])("%s: 400 REQUEST_INVALID with details.errors", async (_label, template, body, pointer, rule) => {
      const path = template.replace("MID", merchant.merchantId).replace("CODE", merchant.ticketCode);
      const method = path.endsWith("blocked-terms") ? "PUT" : "POST";
      const answer = await api.admin(method, path, body);
      expect(answer.status).toBe(400);
      expect(answer.body.error.code).toBe("REQUEST_INVALID");
      expect(answer.body.error.details.errors).toContainEqual(expect.objectContaining({ pointer, rule }));
    });

    it("a body that is not JSON, or not declared JSON: 400", async () => {
      const response = await fetch(`${api.url}/admin/v1/merchants`, {
        method: "POST",
        headers: { authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "application/json" },
        body: "{",
      });
      expect(response.status).toBe(400);
      const form = await fetch(`${api.url}/admin/v1/merchants`, {
        method: "POST",
        headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
        body: "name=x",
      });
      expect(form.status).toBe(400);
    });
  });

  describe("routing", () => {
    it("an unknown admin path: 404 REQUEST_INVALID; a known path with another method: 405", async () => {
      expect(await api.admin("POST", "/admin/v1/unknown", {})).toMatchObject({
        status: 404,
        body: { error: { code: "REQUEST_INVALID" } },
      });
      expect(await api.admin("GET", "/admin/v1/merchants")).toMatchObject({
        status: 405,
        body: { error: { code: "REQUEST_INVALID" } },
      });
      expect(await api.admin("POST", "/admin/v1/moderation/blocked-terms", { terms: [] })).toMatchObject({
        status: 405,
      });
    });
  });

  describe("blocked terms", () => {
    it("PUT replaces the list (trimmed, deduplicated) and answers it", async () => {
      expect(
        await api.admin("PUT", "/admin/v1/moderation/blocked-terms", { terms: [" spam ", "spam", "scam"] }),
      ).toMatchObject({ status: 200, body: { terms: ["spam", "scam"] } });
      expect(await api.admin("PUT", "/admin/v1/moderation/blocked-terms", { terms: [] })).toMatchObject({
        status: 200,
        body: { terms: [] },
      });
    });
  });
});
