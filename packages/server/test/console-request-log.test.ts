/**
 * The console's request log (listRequests) over HTTP, on PGlite and on PostgreSQL: every Open API request of the
 * merchant's keys appears within seconds, accepted and refused, with the canonical string the server computed for
 * a signature that did not match one of its own keys (never the secret, never the body); requests of unknown keys
 * appear nowhere; filters and pages; phone numbers masked; keys' lastUsedAt to the minute; retention by age and by
 * a per-merchant row cap; and rolled keys working until their grace ends.
 */
import { bodyHash, canonicalString } from "@org/webinar-signing";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pruneRequestLog } from "../src/console/request-log/retention";
import { DATABASE_KINDS, openTestDatabase, type TestDatabase } from "./support/databases";
import { startTestServer, type Merchant, type TestServer } from "./support/harness";
import { signedInPerson, type ConsolePersonClient } from "./support/console-client";
import { countOf } from "./support/request-log-rows";
import { testClock } from "./support/test-clock";

const UPSERT = "/api/v1/open/viewers/upsert";

interface LoggedRequest {
  requestId: string;
  at: string;
  apiKey: string;
  operationId: string | null;
  method: string;
  path: string;
  status: number;
  errorCode: string | null;
  durationMs: number;
  canonicalString?: string;
}

/** The logged request with this id, waited for (rows are written off the request path, within seconds). */
async function loggedRequest(person: ConsolePersonClient, requestId: string): Promise<LoggedRequest> {
  const deadline = Date.now() + 5000;
  for (;;) {
    const answer = await person.call("GET", `/console/api/requests?requestId=${requestId}`);
    expect(answer.status).toBe(200);
    if (answer.body.items.length === 1) return answer.body.items[0];
    if (Date.now() > deadline) throw new Error(`request ${requestId} was not logged within 5 s`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe.each(DATABASE_KINDS)("request log on %s", (kind) => {
  let database: TestDatabase;
  let api: TestServer;
  let merchant: Merchant;
  let person: ConsolePersonClient;
  const clock = testClock();

  beforeAll(async () => {
    database = await openTestDatabase(kind, "console-request-log");
    api = await startTestServer(database, {}, { runtime: clock });
    merchant = await api.newMerchant();
    person = await signedInPerson(api, merchant.merchantId, "log@example.com");
  });
  afterAll(async () => {
    await api?.close();
    await database?.close();
  });

  const signedNow = (credentials: { apiKey: string; secret: string }, body: unknown, options = {}) =>
    api.signed(credentials, UPSERT, body, { timestamp: String(Math.floor(clock.now() / 1000)), ...options });

  it("an accepted request appears within seconds with its time, key, operation, status, code and duration", async () => {
    const answer = await signedNow(merchant, { externalUserId: "log-accepted" });
    expect(answer.status).toBe(200);
    const logged = await loggedRequest(person, answer.body.requestId);
    expect(logged).toEqual({
      requestId: answer.body.requestId,
      at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      apiKey: merchant.apiKey,
      operationId: "upsertViewer",
      method: "POST",
      path: UPSERT,
      status: 200,
      errorCode: null,
      durationMs: expect.any(Number),
    });
    expect(Math.abs(Date.parse(logged.at) - Date.now())).toBeLessThan(10_000);
  });

  it("a signature that does not match the merchant's own key shows the canonical string the server computed", async () => {
    const body = { externalUserId: "log-bad-signature" };
    const timestamp = String(Math.floor(clock.now() / 1000));
    const nonce = "0123456789abcdef0123456789abcdef";
    const answer = await api.signed({ apiKey: merchant.apiKey, secret: "not-the-secret" }, UPSERT, body, {
      timestamp,
      nonce,
    });
    expect(answer.status).toBe(401);
    const logged = await loggedRequest(person, answer.body.requestId);
    const expected = canonicalString({
      apiKey: merchant.apiKey,
      method: "POST",
      path: UPSERT,
      timestamp,
      nonce,
      bodyHash: await bodyHash(JSON.stringify(body)),
    });
    expect(logged).toMatchObject({ status: 401, errorCode: "OPEN_API_UNAUTHORIZED", canonicalString: expected });
    const everything = JSON.stringify((await person.call("GET", "/console/api/requests")).body);
    expect(everything).not.toContain(merchant.secret);
    expect(everything).not.toContain("log-bad-signature");
  });

  it("the secret and the body are stored nowhere in the log's table", async () => {
    const rows = await sql<{ row: string }>`select row_to_json(l)::text as row from open_api_request_log l`.execute(
      api.server.services.db,
    );
    expect(rows.rows.length).toBeGreaterThan(0);
    for (const { row } of rows.rows) {
      expect(row).not.toContain(merchant.secret);
      expect(row).not.toContain("log-bad-signature");
    }
  });

  it.each([
    ["a replayed nonce", "OPEN_API_REPLAYED", 409],
    ["an invalid body", "REQUEST_INVALID", 400],
  ])("%s is logged with its code, without a canonical string", async (_name, code, status) => {
    const nonce = `nonce-${code}-${kind}-0123456789`;
    const body = code === "REQUEST_INVALID" ? { externalUserId: "x", unknownField: 1 } : { externalUserId: "replayed" };
    if (code === "OPEN_API_REPLAYED") await signedNow(merchant, body, { nonce });
    const answer = await signedNow(merchant, body, { nonce });
    expect(answer.status).toBe(status);
    const logged = await loggedRequest(person, answer.body.requestId);
    expect(logged).toMatchObject({ status, errorCode: code, operationId: "upsertViewer" });
    expect(logged.canonicalString).toBeUndefined();
  });

  it("a request with a key of nobody is logged for no merchant", async () => {
    const answer = await signedNow({ apiKey: "wk_live_nobodysKey0000000", secret: "x" }, { externalUserId: "z" });
    expect(answer.status).toBe(401);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const count = await api.server.services.db
      .selectFrom("open_api_request_log")
      .select((eb) => eb.fn.countAll<string>().as("n"))
      .where("request_id", "=", answer.body.requestId)
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(0);
  });

  it("phone numbers in a logged path are masked", async () => {
    const answer = await api.signed(
      merchant,
      "/api/v1/open/viewers/13812345678",
      { externalUserId: "p" },
      {
        timestamp: String(Math.floor(clock.now() / 1000)),
        sendPath: "/api/v1/open/viewers/13812345678",
      },
    );
    expect(answer.status).toBe(404);
    const logged = await loggedRequest(person, answer.body.requestId);
    expect(logged.path).toBe("/api/v1/open/viewers/138****5678");
    expect(JSON.stringify(logged)).not.toContain("13812345678");
  });

  it("filters by status, status class, code (NONE: accepted), operation, key and request id; pages newest first", async () => {
    const all = (await person.call("GET", "/console/api/requests")).body.items as LoggedRequest[];
    const cases: [string, (item: LoggedRequest) => boolean][] = [
      ["status=401", (item) => item.status === 401],
      ["status=4xx", (item) => item.status >= 400 && item.status < 500],
      ["errorCode=NONE", (item) => item.errorCode === null],
      ["errorCode=OPEN_API_REPLAYED", (item) => item.errorCode === "OPEN_API_REPLAYED"],
      ["operationId=upsertViewer", (item) => item.operationId === "upsertViewer"],
      [`apiKey=${merchant.apiKey}`, (item) => item.apiKey === merchant.apiKey],
    ];
    for (const [query, keep] of cases) {
      const answer = await person.call("GET", `/console/api/requests?${query}`);
      expect(answer.body.items, query).toEqual(all.filter(keep));
    }
    const times = all.map((item) => Date.parse(item.at));
    expect(times).toEqual([...times].sort((x, y) => y - x));
    const bad = await person.call("GET", "/console/api/requests?status=99&unknown=1");
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.errors.map((error: { pointer: string }) => error.pointer).sort()).toEqual([
      "/status",
      "/unknown",
    ]);
  });

  it("pages of 50 with nextCursor cover every request once", async () => {
    const requestIds: string[] = [];
    for (let i = 0; i < 55; i += 1)
      requestIds.push((await signedNow(merchant, { externalUserId: `page-${i}` })).body.requestId);
    await loggedRequest(person, requestIds.at(-1)!);
    const first = await person.call("GET", "/console/api/requests");
    expect(first.body.items).toHaveLength(50);
    const second = await person.call("GET", `/console/api/requests?cursor=${first.body.nextCursor}`);
    const ids = [...first.body.items, ...second.body.items].map((item: LoggedRequest) => item.requestId);
    expect(new Set(ids).size).toBe(ids.length);
    const total = await api.server.services.db
      .selectFrom("open_api_request_log")
      .select((eb) => eb.fn.countAll<string>().as("n"))
      .where("merchant_id", "=", merchant.merchantId)
      .executeTakeFirstOrThrow();
    expect(ids.length).toBe(Math.min(Number(total.n), 100));
  });

  it("a key's lastUsedAt is the minute of its last accepted request", async () => {
    const keys = await person.call("GET", "/console/api/api-keys");
    const key = keys.body.items.find((item: { apiKey: string }) => item.apiKey === merchant.apiKey);
    expect(key.lastUsedAt).toMatch(/:00Z$/);
    const minute = Math.floor(Date.now() / 60_000) * 60_000;
    expect(Math.abs(Date.parse(key.lastUsedAt) - minute)).toBeLessThanOrEqual(60_000);
  });

  it("retention: rows older than the retention go, and each merchant keeps at most its newest verified rows", async () => {
    const { db } = api.server.services;
    const other = await api.newMerchant();
    await signedNow(other, { externalUserId: "other-merchant" });
    await new Promise((resolve) => setTimeout(resolve, 300));
    const count = async (merchantId: string) =>
      Number(
        (
          await db
            .selectFrom("open_api_request_log")
            .select((eb) => eb.fn.countAll<string>().as("n"))
            .where("merchant_id", "=", merchantId)
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await countOf(db, merchant.merchantId, true);
    expect(before).toBeGreaterThan(50);
    const exclusive = { exclusive: kind === "postgres" };
    const unverified = await countOf(db, merchant.merchantId, false);
    expect(unverified).toBeGreaterThan(0);
    await pruneRequestLog(db, { retentionDays: 7, maxRowsPerMerchant: 50 }, Date.now(), exclusive);
    expect(await countOf(db, merchant.merchantId, true)).toBe(50);
    expect(await countOf(db, merchant.merchantId, false)).toBe(unverified);
    expect(await count(other.merchantId)).toBe(1);
    const newest = (await person.call("GET", "/console/api/requests")).body.items[0];
    await pruneRequestLog(db, { retentionDays: 7, maxRowsPerMerchant: 50 }, Date.now() + 8 * 86_400_000, exclusive);
    expect(await count(merchant.merchantId)).toBe(0);
    expect(await count(other.merchantId)).toBe(0);
    expect(newest).toBeDefined();
  });

  it("a rolled key keeps working until its grace ends, then is refused; the audit list says who rolled it", async () => {
    const created = await person.call("POST", "/console/api/api-keys", {});
    const old = { apiKey: created.body.apiKey, secret: created.body.secret };
    const rolled = await person.call("POST", `/console/api/api-keys/${old.apiKey}/roll`, { graceSeconds: 60 });
    expect(rolled.status).toBe(201);
    const fresh = { apiKey: rolled.body.apiKey, secret: rolled.body.secret };
    expect(rolled.body.previous).toEqual({ apiKey: old.apiKey, revokesAt: expect.any(String) });
    expect((await signedNow(old, { externalUserId: "grace-old" })).status).toBe(200);
    expect((await signedNow(fresh, { externalUserId: "grace-new" })).status).toBe(200);
    clock.advance(61);
    expect((await signedNow(old, { externalUserId: "grace-over" })).status).toBe(401);
    expect((await signedNow(fresh, { externalUserId: "grace-new-2" })).status).toBe(200);
    const keys = (await person.call("GET", "/console/api/api-keys")).body.items;
    expect(keys.find((item: { apiKey: string }) => item.apiKey === old.apiKey)).toMatchObject({ status: "REVOKED" });
    const again = await person.call("POST", `/console/api/api-keys/${old.apiKey}/roll`, { graceSeconds: 0 });
    expect(again).toMatchObject({ status: 409, body: { error: { code: "API_KEY_REVOKED" } } });
    const audit = (await person.call("GET", "/console/api/audit-events")).body.items;
    expect(audit[0]).toMatchObject({
      action: "API_KEY_ROLLED",
      target: old.apiKey,
      actor: { email: "log@example.com" },
      details: { newApiKey: fresh.apiKey },
    });
  });

  it("revoke: the key is refused at once, and its later requests still appear in the log", async () => {
    const created = await person.call("POST", "/console/api/api-keys", {});
    const key = { apiKey: created.body.apiKey, secret: created.body.secret };
    const revoked = await person.call("POST", `/console/api/api-keys/${key.apiKey}/revoke`, {});
    expect(revoked).toMatchObject({ status: 200, body: { apiKey: key.apiKey, status: "REVOKED" } });
    const refused = await signedNow(key, { externalUserId: "after-revoke" });
    expect(refused.status).toBe(401);
    const logged = await loggedRequest(person, refused.body.requestId);
    expect(logged).toMatchObject({ apiKey: key.apiKey, errorCode: "OPEN_API_UNAUTHORIZED" });
    expect(logged.canonicalString).toBeUndefined();
  });
});

describe("request log switched off", () => {
  it("WEBINAR_REQUEST_LOG=false writes no row", async () => {
    const database = await openTestDatabase("pglite", "console-request-log-off");
    const api = await startTestServer(database, { WEBINAR_REQUEST_LOG: "false" });
    try {
      const merchant = await api.newMerchant();
      await merchant.client.upsertViewer({ externalUserId: "unlogged" });
      await new Promise((resolve) => setTimeout(resolve, 300));
      const rows = await api.server.services.db.selectFrom("open_api_request_log").selectAll().execute();
      expect(rows).toEqual([]);
    } finally {
      await api.close();
      await database.close();
    }
  });
});
