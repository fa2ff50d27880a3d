/**
 * The request log keeps its signal, on PGlite and on PostgreSQL: requests refused before a signature checked out
 * are capped apart from verified ones, so a flood of wrong signatures naming a merchant's key never pushes its
 * verified requests out (WEBINAR_REQUEST_LOG_MAX_ROWS per class, applied by the server's own retention timer);
 * one key logs at most WEBINAR_REQUEST_LOG_UNVERIFIED_PER_MINUTE unverified requests a minute and the rest are
 * counted; retention deletes in bounded batches and catches up on everything due in one run; on PostgreSQL it
 * runs under an advisory lock, and a run that finds the lock taken deletes nothing.
 */
import { type Kysely, sql } from "kysely";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pruneRequestLog, RETENTION_LOCK_KEY } from "../src/console/request-log/retention";
import type { Database } from "../src/db/schema";
import { DATABASE_KINDS, openTestDatabase, type TestDatabase } from "./support/databases";
import { startTestServer, type Merchant, type TestServer } from "./support/harness";
import { countOf } from "./support/request-log-rows";
import { testClock } from "./support/test-clock";

const UPSERT = "/api/v1/open/viewers/upsert";
const CAP = 100;
const UNVERIFIED_PER_MINUTE = 80;

/** Waits until `check` holds (the log is written and pruned off the request path). */
async function eventually(what: string, check: () => Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs / 1000} s`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Sends `count` requests made by `send`, 10 at a time. */
async function sendMany<T extends { status: number }>(count: number, send: (index: number) => Promise<T>) {
  const answers: T[] = [];
  for (let start = 0; start < count; start += 10) {
    const group = Array.from({ length: Math.min(10, count - start) }, (_, offset) => send(start + offset));
    answers.push(...(await Promise.all(group)));
  }
  return answers;
}

/** Inserts `count` rows answered `ageDays` ago for the merchant's key, as a server down that long left them. */
async function insertOldRows(db: Kysely<Database>, merchant: Merchant, count: number, ageDays: number) {
  await sql`
    insert into open_api_request_log
      (merchant_id, request_id, answered_at, api_key, method, path, status, duration_ms, verified)
    select ${merchant.merchantId}, 'old-' || n, now() - make_interval(days => ${ageDays}), ${merchant.apiKey},
           'POST', ${UPSERT}, 200, 1, true
    from generate_series(1, ${count}) as n
  `.execute(db);
}

describe.each(DATABASE_KINDS)("request log classes on %s", (kind) => {
  let database: TestDatabase;
  let api: TestServer;
  const clock = testClock();
  /** A merchant for the lock's test, made while the server still ran. */
  let lockMerchant: Merchant | undefined;

  beforeAll(async () => {
    database = await openTestDatabase(kind, "console-request-log-classes");
    api = await startTestServer(
      database,
      {
        WEBINAR_REQUEST_LOG_MAX_ROWS: String(CAP),
        WEBINAR_REQUEST_LOG_PRUNE_SECONDS: "1",
        WEBINAR_REQUEST_LOG_UNVERIFIED_PER_MINUTE: String(UNVERIFIED_PER_MINUTE),
      },
      { runtime: clock },
    );
  }, 60_000);
  afterAll(async () => {
    await api?.close();
    await database?.close();
  });

  const at = () => ({ timestamp: String(Math.floor(clock.now() / 1000)) });

  it("300 wrong signatures over two minutes after 130 verified requests: the newest 100 verified stay", async () => {
    const { db } = api.server.services;
    const merchant = await api.newMerchant();
    const verified = await sendMany(130, (index) =>
      api.signed(merchant, UPSERT, { externalUserId: `v-${index}` }, at()),
    );
    expect(verified.map((answer) => answer.status)).toEqual(verified.map(() => 200));
    const wrong = { apiKey: merchant.apiKey, secret: "not-the-secret" };
    const refuse = (index: number) => api.signed(wrong, UPSERT, { externalUserId: `w-${index}` }, at());
    const refused = await sendMany(150, refuse);
    // 80 of each minute's refusals are stored (the key's bound): 160 unverified rows, more than the cap.
    clock.advance(60);
    refused.push(...(await sendMany(150, refuse)));
    expect(refused.map((answer) => answer.status)).toEqual(refused.map(() => 401));
    // The server's own retention (every second here) brings each class down to the cap.
    await eventually(
      "both classes at the cap",
      async () =>
        (await countOf(db, merchant.merchantId, true)) === CAP &&
        (await countOf(db, merchant.merchantId, false)) === CAP,
    );
    const kept = await db
      .selectFrom("open_api_request_log")
      .select("request_id")
      .where("merchant_id", "=", merchant.merchantId)
      .where("verified", "=", true)
      .execute();
    expect(kept).toHaveLength(CAP);
    const newestVerified = verified.slice(-CAP).map((answer) => answer.body.requestId as string);
    expect(kept.map((row) => row.request_id).sort()).toEqual(newestVerified.sort());
  }, 120_000);

  it("one key logs at most its bound of unverified requests per minute; the others are counted, not stored", async () => {
    const { db } = api.server.services;
    const merchant = await api.newMerchant();
    const wrong = { apiKey: merchant.apiKey, secret: "not-the-secret" };
    // A minute of its own: the test before spent another key's bound in the minute it ran.
    clock.advance(60);
    const refused = await sendMany(200, (index) => api.signed(wrong, UPSERT, { externalUserId: `b-${index}` }, at()));
    expect(refused.map((answer) => answer.status)).toEqual(refused.map(() => 401));
    const accepted = await api.signed(merchant, UPSERT, { externalUserId: "after-the-flood" }, at());
    expect(accepted.status).toBe(200);
    await eventually("the verified request logged", async () => (await countOf(db, merchant.merchantId, true)) === 1);
    expect(await countOf(db, merchant.merchantId, false)).toBe(UNVERIFIED_PER_MINUTE);
    // The next minute's first refusal reports the last minute's count and is logged again.
    clock.advance(60);
    const next = await api.signed(wrong, UPSERT, { externalUserId: "next-minute" }, at());
    expect(next.status).toBe(401);
    await eventually(
      "the next minute's refusal logged",
      async () => (await countOf(db, merchant.merchantId, false)) === UNVERIFIED_PER_MINUTE + 1,
    );
    expect(api.logs.records()).toContainEqual(
      expect.objectContaining({
        dropped: 200 - UNVERIFIED_PER_MINUTE,
        keys: 1,
        msg: expect.stringContaining("counted, not logged"),
      }),
    );
  }, 120_000);

  it("retention deletes in bounded batches and catches up on everything due in one run", async () => {
    const merchant = await api.newMerchant();
    lockMerchant = await api.newMerchant();
    // The server's own retention would race the runs below: it stops with the server.
    await api.close();
    const { db } = database.handle;
    await insertOldRows(db, merchant, 23, 30);
    const outcome = await pruneRequestLog(db, { retentionDays: 7, maxRowsPerMerchant: CAP, batchRows: 5 }, Date.now(), {
      exclusive: kind === "postgres",
    });
    expect(outcome).toMatchObject({ kind: "pruned" });
    if (outcome.kind !== "pruned") return;
    expect(outcome.deleted).toBeGreaterThanOrEqual(23);
    // 23 rows in deletes of at most 5: five that found a full batch, the sixth found the rest and ended the loop.
    expect(outcome.statements).toBeGreaterThanOrEqual(5);
    expect(await countOf(db, merchant.merchantId, true)).toBe(0);
  });

  it("on PostgreSQL a run finding the retention lock taken deletes nothing; the embedded database needs none", async () => {
    const { db } = database.handle;
    const merchant = lockMerchant!;
    await insertOldRows(db, merchant, 3, 30);
    const settings = { retentionDays: 7, maxRowsPerMerchant: CAP };
    if (kind === "pglite") {
      expect(await pruneRequestLog(db, settings, Date.now(), { exclusive: false })).toMatchObject({ kind: "pruned" });
      expect(await countOf(db, merchant.merchantId, true)).toBe(0);
      return;
    }
    const holder = new pg.Client({ connectionString: database.env.DATABASE_URL });
    await holder.connect();
    try {
      await holder.query("select pg_advisory_lock($1)", [RETENTION_LOCK_KEY]);
      expect(await pruneRequestLog(db, settings, Date.now(), { exclusive: true })).toEqual({ kind: "skipped" });
      expect(await countOf(db, merchant.merchantId, true)).toBe(3);
      await holder.query("select pg_advisory_unlock($1)", [RETENTION_LOCK_KEY]);
      expect(await pruneRequestLog(db, settings, Date.now(), { exclusive: true })).toMatchObject({ kind: "pruned" });
      expect(await countOf(db, merchant.merchantId, true)).toBe(0);
    } finally {
      await holder.end();
    }
  });
});
