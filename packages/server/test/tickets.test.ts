/**
 * Issue one-time login ticket (issueLoginTicket) and the watch page's exchange (`POST /w/api/session`), end to end,
 * on PGlite and on PostgreSQL: URL shape, storage of hashes only, ownership and publication rules, the
 * lifecycle (consumed, expired, superseded, wrong webinar), the 503 codes of the separate lookups, concurrency.
 */
import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { DependencyUnavailableError } from "../src/dependency";
import { systemRuntime, type Runtime } from "../src/runtime";
import { DATABASE_KINDS } from "./support/databases";
import { useServerPerFile } from "./support/server-per-file";
import { apiError, startTestServer, type Merchant } from "./support/harness";

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

describe.each(DATABASE_KINDS)("login tickets (issueLoginTicket) on %s", (kind) => {
  const fixture = useServerPerFile(kind, "tickets");
  let counter = 0;
  const newViewer = async (who: Merchant = fixture.merchant) =>
    (await who.client.upsertViewer({ externalUserId: `ticket-viewer-${++counter}` })).viewer;
  const newWebinar = async (status = "PUBLISHED", who: Merchant = fixture.merchant) =>
    (await fixture.api.admin("POST", `/admin/v1/merchants/${who.merchantId}/webinars`, { status })).body
      .ticketCode as string;

  it("issueLoginTicket: issues a ticket of >= 32 random bytes with loginUrl <origin>/w/<ticketCode>#login_ticket=<ticket> and expiresAt = now + TTL", async () => {
    const viewer = await newViewer();
    const before = Date.now();
    const ticket = await fixture.merchant.client.issueLoginTicket({
      uid: viewer.uid,
      ticketCode: fixture.merchant.ticketCode,
    });
    const token = ticket.loginTicket.replace(/^lt_/, "");
    expect(Buffer.from(token, "base64url").length).toBeGreaterThanOrEqual(32);
    expect(ticket.loginUrl).toBe(
      `${fixture.api.url}/w/${fixture.merchant.ticketCode}#login_ticket=${ticket.loginTicket}`,
    );
    expect(new URL(ticket.loginUrl).search).toBe("");
    expect(ticket.expiresAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    const expires = Date.parse(ticket.expiresAt);
    expect(expires).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000 + 60_000);
    expect(expires).toBeLessThanOrEqual(Date.now() + 60_000);
  });

  it("issueLoginTicket: only the ticket's SHA-256 is stored", async () => {
    const viewer = await newViewer();
    const { loginTicket } = await fixture.merchant.client.issueLoginTicket({
      uid: viewer.uid,
      ticketCode: fixture.merchant.ticketCode,
    });
    const rows = await fixture.database.handle.db
      .selectFrom("login_tickets")
      .selectAll()
      .where("uid", "=", viewer.uid)
      .where("merchant_id", "=", fixture.merchant.merchantId)
      .execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.ticket_hash).toBe(sha256(loginTicket));
    expect(JSON.stringify(rows)).not.toContain(loginTicket.slice(3));
  });

  it("LoginTicket.loginUrl honours the merchant's custom watch domain", async () => {
    const custom = await fixture.api.newMerchant({ watchOrigin: "https://watch.example.com" });
    const viewer = await newViewer(custom);
    const { loginUrl } = await custom.client.issueLoginTicket({ uid: viewer.uid, ticketCode: custom.ticketCode });
    expect(loginUrl).toMatch(new RegExp(`^https://watch\\.example\\.com/w/${custom.ticketCode}#login_ticket=lt_`));
  });

  it("WEBINAR_PUBLIC_WATCH_ORIGIN is the origin of merchants without a custom domain", async () => {
    const other = await startTestServer(fixture.database, { WEBINAR_PUBLIC_WATCH_ORIGIN: "https://live.example.org" });
    try {
      const viewer = await newViewer();
      const { loginUrl } = await other
        .client(fixture.merchant)
        .issueLoginTicket({ uid: viewer.uid, ticketCode: fixture.merchant.ticketCode });
      expect(loginUrl.startsWith(`https://live.example.org/w/${fixture.merchant.ticketCode}#login_ticket=`)).toBe(true);
    } finally {
      await other.close();
    }
  });

  describe("ownership and state (issueLoginTicket: viewer and published webinar of the merchant)", () => {
    it("issueLoginTicket: a uid without viewer: 404 VIEWER_NOT_FOUND", async () => {
      expect(
        await apiError(
          fixture.merchant.client.issueLoginTicket({ uid: 10_000, ticketCode: fixture.merchant.ticketCode }),
        ),
      ).toMatchObject({ status: 404, code: "VIEWER_NOT_FOUND" });
    });

    it("issueLoginTicket: another merchant's viewer: 404 VIEWER_NOT_FOUND", async () => {
      const other = await fixture.api.newMerchant();
      const theirs = await newViewer(other);
      expect(
        await apiError(
          fixture.merchant.client.issueLoginTicket({ uid: theirs.uid, ticketCode: fixture.merchant.ticketCode }),
        ),
      ).toMatchObject({ code: "VIEWER_NOT_FOUND" });
    });

    it("issueLoginTicket: an unknown ticketCode: 404 WEBINAR_NOT_FOUND", async () => {
      const viewer = await newViewer();
      expect(
        await apiError(fixture.merchant.client.issueLoginTicket({ uid: viewer.uid, ticketCode: "no-such-webinar" })),
      ).toMatchObject({ status: 404, code: "WEBINAR_NOT_FOUND" });
    });

    it("issueLoginTicket: another merchant's webinar: 404 WEBINAR_NOT_FOUND", async () => {
      const other = await fixture.api.newMerchant();
      const viewer = await newViewer();
      expect(
        await apiError(fixture.merchant.client.issueLoginTicket({ uid: viewer.uid, ticketCode: other.ticketCode })),
      ).toMatchObject({ code: "WEBINAR_NOT_FOUND" });
    });

    it.each(["DRAFT", "HIDDEN", "SUSPENDED"])(
      "issueLoginTicket: a %s webinar: 404 WEBINAR_NOT_FOUND",
      async (status) => {
        const code = await newWebinar(status);
        const viewer = await newViewer();
        expect(
          await apiError(fixture.merchant.client.issueLoginTicket({ uid: viewer.uid, ticketCode: code })),
        ).toMatchObject({ code: "WEBINAR_NOT_FOUND" });
        await fixture.api.admin("POST", `/admin/v1/webinars/${code}/status`, { status: "PUBLISHED" });
        expect(
          (await fixture.merchant.client.issueLoginTicket({ uid: viewer.uid, ticketCode: code })).loginTicket,
        ).toMatch(/^lt_/);
      },
    );

    it.each([
      ["uid below the range", { uid: 9999 }],
      ["uid above the range", { uid: 10_000_000 }],
      ["a ticketCode with other characters", { ticketCode: "wbn/1" }],
      ["a missing ticketCode", { ticketCode: undefined }],
    ])("issueLoginTicket: %s: 400 REQUEST_INVALID", async (_label, patch) => {
      const body = { uid: 10_001, ticketCode: fixture.merchant.ticketCode, ...patch } as never;
      expect(await apiError(fixture.merchant.client.issueLoginTicket(body))).toMatchObject({
        status: 400,
        code: "REQUEST_INVALID",
      });
    });
  });

  describe("ticket lifecycle through the exchange", () => {
    it("a valid ticket is exchanged once: 200 with uid and an HttpOnly SameSite session cookie, then 401", async () => {
      const viewer = await newViewer();
      const { loginTicket } = await fixture.merchant.client.issueLoginTicket({
        uid: viewer.uid,
        ticketCode: fixture.merchant.ticketCode,
      });
      const first = await fixture.api.exchange(fixture.merchant.ticketCode, loginTicket);
      expect(first.status).toBe(200);
      expect(first.body).toMatchObject({ uid: viewer.uid, ticketCode: fixture.merchant.ticketCode });
      expect(first.body.requestId).toBe(first.headers.get("x-request-id"));
      const cookie = first.headers.get("set-cookie") ?? "";
      expect(cookie).toMatch(/^webinar_session=ws_[A-Za-z0-9_-]{43}; Max-Age=\d+; Path=\/w; HttpOnly; SameSite=Lax$/);
      const session = cookie.split(";")[0]!.split("=")[1]!;
      const stored = await fixture.database.handle.db
        .selectFrom("watch_sessions")
        .select(["session_hash", "uid"])
        .where("session_hash", "=", sha256(session))
        .execute();
      expect(stored).toEqual([{ session_hash: sha256(session), uid: viewer.uid }]);
      const second = await fixture.api.exchange(fixture.merchant.ticketCode, loginTicket);
      expect(second.status).toBe(401);
      expect(second.body.error.code).toBe("LOGIN_TICKET_INVALID");
      expect(second.headers.get("set-cookie")).toBeNull();
    });

    it("issuing again supersedes the unused ticket, even one for another webinar", async () => {
      const viewer = await newViewer();
      const otherWebinar = await newWebinar();
      const first = await fixture.merchant.client.issueLoginTicket({
        uid: viewer.uid,
        ticketCode: fixture.merchant.ticketCode,
      });
      const second = await fixture.merchant.client.issueLoginTicket({ uid: viewer.uid, ticketCode: otherWebinar });
      expect((await fixture.api.exchange(fixture.merchant.ticketCode, first.loginTicket)).status).toBe(401);
      expect((await fixture.api.exchange(otherWebinar, second.loginTicket)).status).toBe(200);
    });

    it("a ticket exchanged with another webinar's code: 401, and it stays usable for its own webinar", async () => {
      const viewer = await newViewer();
      const otherWebinar = await newWebinar();
      const { loginTicket } = await fixture.merchant.client.issueLoginTicket({
        uid: viewer.uid,
        ticketCode: fixture.merchant.ticketCode,
      });
      expect((await fixture.api.exchange(otherWebinar, loginTicket)).body.error.code).toBe("LOGIN_TICKET_INVALID");
      expect((await fixture.api.exchange(fixture.merchant.ticketCode, loginTicket)).status).toBe(200);
    });

    it.each([
      [
        "an unknown ticket of the issued shape",
        (code: string) => ({ ticketCode: code, loginTicket: `lt_${"A".repeat(43)}` }),
        401,
        "LOGIN_TICKET_INVALID",
      ],
      [
        "a malformed ticket",
        (code: string) => ({ ticketCode: code, loginTicket: "lt_unknown" }),
        401,
        "LOGIN_TICKET_INVALID",
      ],
      [
        "a 300-character ticket",
        (code: string) => ({ ticketCode: code, loginTicket: "x".repeat(300) }),
        401,
        "LOGIN_TICKET_INVALID",
      ],
      [
        "a ticket that is not a string",
        (code: string) => ({ ticketCode: code, loginTicket: 12 }),
        401,
        "LOGIN_TICKET_INVALID",
      ],
      ["no ticket", (code: string) => ({ ticketCode: code }), 401, "LOGIN_TICKET_INVALID"],
      [
        "a malformed ticketCode",
        () => ({ ticketCode: "no such/code", loginTicket: `lt_${"A".repeat(43)}` }),
        401,
        "LOGIN_TICKET_INVALID",
      ],
      [
        "a ticketCode that is not a string",
        () => ({ ticketCode: 1, loginTicket: `lt_${"A".repeat(43)}` }),
        401,
        "LOGIN_TICKET_INVALID",
      ],
      [
        "an unknown field",
        (code: string) => ({ ticketCode: code, loginTicket: `lt_${"A".repeat(43)}`, extra: true }),
        400,
        "REQUEST_INVALID",
      ],
      ["a body that is not an object", () => ["lt_x"], 400, "REQUEST_INVALID"],
      ["a body that is not JSON", () => "{ticketCode", 400, "REQUEST_INVALID"],
    ])("exchange of %s: %i %s", async (_name, body, status, code) => {
      const sent = body(fixture.merchant.ticketCode);
      const response = await fetch(`${fixture.api.url}/w/api/session`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: typeof sent === "string" ? sent : JSON.stringify(sent),
      });
      expect(response.status).toBe(status);
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe(code);
    });

    it("the ticket establishes identity only: it is exchanged even after the webinar was hidden", async () => {
      const code = await newWebinar();
      const viewer = await newViewer();
      const { loginTicket } = await fixture.merchant.client.issueLoginTicket({ uid: viewer.uid, ticketCode: code });
      await fixture.api.admin("POST", `/admin/v1/webinars/${code}/status`, { status: "HIDDEN" });
      expect((await fixture.api.exchange(code, loginTicket)).status).toBe(200);
    });

    it("an expired ticket: 401 (clock injected and moved past expiresAt)", async () => {
      let offset = 0;
      const runtime: Runtime = { ...systemRuntime, now: () => Date.now() + offset };
      const clocked = await startTestServer(fixture.database, { WEBINAR_TICKET_TTL_SECONDS: "30" }, { runtime });
      try {
        const viewer = await newViewer();
        const client = clocked.client(fixture.merchant);
        const expiring = await client.issueLoginTicket({ uid: viewer.uid, ticketCode: fixture.merchant.ticketCode });
        expect(Date.parse(expiring.expiresAt) - Date.now()).toBeLessThanOrEqual(30_000);
        offset = Date.parse(expiring.expiresAt) - Date.now() + 1000;
        expect((await clocked.exchange(fixture.merchant.ticketCode, expiring.loginTicket)).status).toBe(401);
        offset = 0;
        const fresh = await client.issueLoginTicket({ uid: viewer.uid, ticketCode: fixture.merchant.ticketCode });
        offset = Date.parse(fresh.expiresAt) - Date.now() - 2000;
        expect((await clocked.exchange(fixture.merchant.ticketCode, fresh.loginTicket)).status).toBe(200);
        expect(clocked.violations).toEqual([]);
      } finally {
        await clocked.close();
      }
    });
  });

  describe("issueLoginTicket: 503 codes of the separate lookups", () => {
    it.each([
      [
        "webinar metadata",
        "PUBLIC_METADATA_UNAVAILABLE",
        { webinarMetadata: { find: () => Promise.reject(new DependencyUnavailableError("metadata service down")) } },
      ],
      [
        "watch domain",
        "VIEWER_DOMAIN_UNAVAILABLE",
        { watchDomains: { originFor: () => Promise.reject(new DependencyUnavailableError("domain mapping down")) } },
      ],
    ])("issueLoginTicket: the %s lookup fails: 503 %s, no ticket stored", async (_label, code, options) => {
      const failing = await startTestServer(fixture.database, {}, options);
      try {
        const viewer = await newViewer();
        expect(
          await apiError(
            failing
              .client(fixture.merchant)
              .issueLoginTicket({ uid: viewer.uid, ticketCode: fixture.merchant.ticketCode }),
          ),
        ).toMatchObject({ status: 503, code });
        const stored = await fixture.database.handle.db
          .selectFrom("login_tickets")
          .select("ticket_hash")
          .where("uid", "=", viewer.uid)
          .where("merchant_id", "=", fixture.merchant.merchantId)
          .execute();
        expect(stored).toEqual([]);
        expect(failing.violations).toEqual([]);
      } finally {
        await failing.close();
      }
    });
  });

  describe("concurrency", () => {
    it("20 parallel issues for one viewer: all answered, at most one ticket redeemable (exactly the last)", async () => {
      const viewer = await newViewer();
      const results = await Promise.allSettled(
        Array.from({ length: 20 }, () =>
          fixture.merchant.client.issueLoginTicket({ uid: viewer.uid, ticketCode: fixture.merchant.ticketCode }),
        ),
      );
      const tickets = results.flatMap((result) => (result.status === "fulfilled" ? [result.value.loginTicket] : []));
      expect(tickets).toHaveLength(20);
      const unused = await fixture.database.handle.db
        .selectFrom("login_tickets")
        .select("ticket_hash")
        .where("uid", "=", viewer.uid)
        .where("merchant_id", "=", fixture.merchant.merchantId)
        .where("state", "=", "UNUSED")
        .execute();
      expect(unused).toHaveLength(1);
      const exchanges = await Promise.all(
        tickets.map((ticket) => fixture.api.exchange(fixture.merchant.ticketCode, ticket)),
      );
      expect(exchanges.filter((exchange) => exchange.status === 200)).toHaveLength(1);
    });

    it("20 parallel exchanges of one ticket: exactly one succeeds", async () => {
      const viewer = await newViewer();
      const { loginTicket } = await fixture.merchant.client.issueLoginTicket({
        uid: viewer.uid,
        ticketCode: fixture.merchant.ticketCode,
      });
      const exchanges = await Promise.all(
        Array.from({ length: 20 }, () => fixture.api.exchange(fixture.merchant.ticketCode, loginTicket)),
      );
      expect(exchanges.filter((exchange) => exchange.status === 200)).toHaveLength(1);
      expect(exchanges.filter((exchange) => exchange.status === 401)).toHaveLength(19);
    });
  });
});
