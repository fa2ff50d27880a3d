/**
 * Operations: /healthz, request ids on every answer, unexpected errors as 500 INTERNAL_ERROR
 * without internals, logs without credentials (captured and searched for the secret, signature, ticket and
 * login URL), graceful shutdown, and the watch page.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signRequest } from "@org/webinar-signing";
import { DATABASE_KINDS, openTestDatabase, type TestDatabase } from "./support/databases";
import { ADMIN_TOKEN, startTestServer, type Merchant, type TestServer } from "./support/harness";

const kind = DATABASE_KINDS[0]!;

describe(`operations on ${kind}`, () => {
  let database: TestDatabase;
  let api: TestServer;
  let merchant: Merchant;

  beforeAll(async () => {
    database = await openTestDatabase(kind, "ops");
    api = await startTestServer(database);
    merchant = await api.newMerchant();
  });
  afterAll(async () => {
    await api?.close();
    await database?.close();
  });

  it("GET /healthz: 200 with requestId", async () => {
    const response = await fetch(`${api.url}/healthz`);
    expect(response.status).toBe(200);
    const body = (await response.json()) as { requestId: string; status: string };
    expect(body).toEqual({ requestId: response.headers.get("x-request-id"), status: "ok" });
  });

  it("an unexpected error: 500 INTERNAL_ERROR with requestId, no stack or internal text; logged with the stack", async () => {
    const broken = await startTestServer(
      database,
      {},
      { webinarMetadata: { find: () => Promise.reject(new TypeError("secret internal detail: x is undefined")) } },
    );
    try {
      const { viewer } = await merchant.client.upsertViewer({ externalUserId: "ops-500" });
      const answer = await broken.signed(merchant, "/api/v1/open/viewers/login-tickets", {
        uid: viewer.uid,
        ticketCode: merchant.ticketCode,
      });
      expect(answer.status).toBe(500);
      expect(answer.body).toEqual({
        requestId: answer.headers.get("x-request-id"),
        error: { code: "INTERNAL_ERROR", message: "unexpected server error" },
      });
      const logged = broken.logs.records().find((record) => record.msg === "unexpected error");
      expect(logged).toMatchObject({
        requestId: answer.body.requestId,
        err: { message: expect.stringContaining("secret internal detail") },
      });
      expect(broken.violations).toEqual([]);
    } finally {
      await broken.close();
    }
  });

  it("every answer logs one access line with requestId, path, status and no query string", async () => {
    await fetch(`${api.url}/healthz?token=abc`);
    const record = api.logs
      .records()
      .filter((entry) => entry.msg === "request" && entry.path === "/healthz")
      .at(-1);
    expect(record).toMatchObject({
      level: "info",
      method: "GET",
      path: "/healthz",
      status: 200,
      requestId: expect.stringMatching(/^req_/),
    });
    expect(api.logs.text).not.toContain("token=abc");
  });

  it("logs never contain the secret, a signature, a login ticket, a login URL or a session cookie", async () => {
    const watched = await startTestServer(database, { WEBINAR_LOG_LEVEL: "trace" });
    try {
      const fresh = (await watched.admin("POST", `/admin/v1/merchants/${merchant.merchantId}/api-keys`, {})).body as {
        apiKey: string;
        secret: string;
      };
      const client = watched.client(fresh);
      const { viewer } = await client.upsertViewer({ externalUserId: "ops-logs", phone: "13912345678" });
      const ticket = await client.issueLoginTicket({ uid: viewer.uid, ticketCode: merchant.ticketCode });
      const exchanged = await watched.exchange(merchant.ticketCode, ticket.loginTicket);
      await watched.exchange(merchant.ticketCode, ticket.loginTicket);
      const raw = JSON.stringify({ externalUserId: "ops-logs-2" });
      const signed = await signRequest({
        apiKey: fresh.apiKey,
        secret: fresh.secret,
        path: "/api/v1/open/viewers/upsert",
        body: raw,
      });
      await fetch(`${watched.url}/api/v1/open/viewers/upsert`, {
        method: "POST",
        headers: { ...signed.headers },
        body: raw,
      });
      await fetch(`${watched.url}/api/v1/open/viewers/upsert`, {
        method: "POST",
        headers: { ...signed.headers },
        body: raw,
      });
      await watched.logs.text; // flush
      const text = watched.logs.text;
      expect(text.length).toBeGreaterThan(0);
      const session = (exchanged.headers.get("set-cookie") ?? "").split(";")[0]!.split("=")[1]!;
      for (const credential of [
        fresh.secret,
        signed.headers["X-Signature"],
        ticket.loginTicket,
        ticket.loginTicket.slice(3),
        ticket.loginUrl,
        session,
        ADMIN_TOKEN,
      ]) {
        expect(text).not.toContain(credential);
      }
      expect(watched.stdout.text).not.toContain(fresh.secret);
    } finally {
      await watched.close();
    }
  });

  it("the log filter censors credential shapes even inside messages", async () => {
    const { scrubCredentials } = await import("../src/logging/log");
    const line = JSON.stringify({
      msg: "oops lt_abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG at https://w.test/w/x#login_ticket=lt_zzzzzzzzzzzzzzzzzzzzzzzzzzzz and Bearer abc.def",
    });
    const scrubbed = scrubCredentials(line);
    expect(scrubbed).not.toMatch(/abcdefghijklmnop|zzzzzzzz|abc\.def/);
  });

  it("graceful shutdown: a request in flight finishes, new connections are refused, the database is left usable", async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let entered!: () => void;
    const reached = new Promise<void>((resolve) => (entered = resolve));
    const slow = await startTestServer(
      database,
      {},
      {
        webinarMetadata: {
          find: async (merchantId, ticketCode) => {
            entered();
            await gate;
            const row = await database.handle.db
              .selectFrom("webinars")
              .select(["id", "status"])
              .where("ticket_code", "=", ticketCode)
              .where("merchant_id", "=", merchantId)
              .executeTakeFirst();
            return row ?? null;
          },
        },
      },
    );
    const { viewer } = await merchant.client.upsertViewer({ externalUserId: "ops-shutdown" });
    const inFlight = slow.client(merchant).issueLoginTicket({ uid: viewer.uid, ticketCode: merchant.ticketCode });
    await reached; // the request is in the server, waiting in its webinar lookup
    const closing = slow.close();
    // New connections are refused once the server stopped listening (after the finalizer stopped, a moment later).
    let refused = false;
    for (let attempt = 0; attempt < 100 && !refused; attempt += 1) {
      refused = await fetch(`${slow.url}/healthz`).then(
        () => false,
        () => true,
      );
      if (!refused) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(refused).toBe(true);
    release();
    expect((await inFlight).loginTicket).toMatch(/^lt_/);
    await closing;
    expect(slow.logs.records().some((record) => record.msg === "closed")).toBe(true);
  });

  it("GET /w/{ticketCode}: the watch page, no referrer, not cached, scripts from this origin only", async () => {
    const response = await fetch(`${api.url}/w/${merchant.ticketCode}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("text/html");
    expect(response.headers.get("referrer-policy")).toBe("no-referrer");
    expect(response.headers.get("content-security-policy")).toMatch(/default-src 'none'; script-src 'self';/);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(await response.text()).toContain('<script src="/w/assets/watch.js" defer></script>');
    const script = await fetch(`${api.url}/w/assets/watch.js`);
    expect(script.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(await script.text()).toContain("/w/api/session");
  });
});
