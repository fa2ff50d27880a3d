/**
 * db/statements.ts on PostgreSQL: a statement of fixed text is prepared once on a connection of the database handle
 * and reused with each run's values, inside a transaction too; a query built per call is never prepared, so what a
 * connection holds is bounded by the code. The server's own statements (a nonce claim, an upsert, a heartbeat
 * batch's lock) are among them. The pool has one connection here, so `pg_prepared_statements` (which lists only its
 * own session's) sees every statement.
 */
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openNonceStore } from "../src/keys/nonce-stores";
import { connectDatabase, type DatabaseHandle } from "../src/db/connect";
import { runStatement, statement } from "../src/db/statements";
import { systemRuntime } from "../src/runtime";
import { createViewerUpserter } from "../src/viewers/upsert";
import { commitHeartbeatBatch } from "../src/watch-data/heartbeat-batch";
import type { WatchSubject } from "../src/watch-data/watch-subject";
import { createPostgresDatabase } from "./support/databases";

describe("prepared statements on PostgreSQL", () => {
  let database: Awaited<ReturnType<typeof createPostgresDatabase>>;
  let handle: DatabaseHandle;
  beforeAll(async () => {
    database = await createPostgresDatabase("prepared_statements");
    handle = await connectDatabase(
      { kind: "postgres", databaseUrl: database.url },
      { connectTimeoutMs: 2000, statementTimeoutMs: 10_000, poolMax: 1 },
    );
  });
  afterAll(async () => {
    await handle?.close();
    await database?.drop();
  });

  /** The statements prepared on the pool's one connection: name and text. */
  async function prepared(): Promise<{ name: string; statement: string }[]> {
    const { rows } = await sql<{ name: string; statement: string }>`
      select name, statement from pg_prepared_statements order by prepare_time
    `.execute(handle.db);
    return rows;
  }
  const countOf = async (fragment: string) =>
    (await prepared()).filter((row) => row.statement.includes(fragment)).length;

  it("a statement is prepared once, under the name of its text's digest, and runs with each call's values", async () => {
    const twice = statement<{ twice: number }>("select $1::int * 2 as twice /* echo-twice */");
    expect(await runStatement(handle.db, twice, [2])).toEqual([{ twice: 4 }]);
    expect(await runStatement(handle.db, twice, [21])).toEqual([{ twice: 42 }]);
    const rows = (await prepared()).filter((row) => row.statement.includes("echo-twice"));
    expect(rows).toEqual([{ name: twice.name, statement: twice.text }]);
    expect(twice.name).toMatch(/^webinar_[0-9a-f]{32}$/);
    expect(statement(twice.text).name).toBe(twice.name);
    expect(statement(`${twice.text} `).name).not.toBe(twice.name);
  });

  it("inside a transaction too: the transaction's connection reuses the prepared statement", async () => {
    const plusOne = statement<{ n: number }>("select $1::int + 1 as n /* in-transaction */");
    const answers = await handle.db
      .transaction()
      .execute(async (trx) => [await runStatement(trx, plusOne, [1]), await runStatement(trx, plusOne, [2])]);
    expect(answers).toEqual([[{ n: 2 }], [{ n: 3 }]]);
    expect(await runStatement(handle.db, plusOne, [3])).toEqual([{ n: 4 }]);
    expect(await countOf("in-transaction")).toBe(1);
  });

  it("a query built per call is not prepared", async () => {
    for (const n of [1, 2]) {
      const rows = await handle.db.selectNoFrom(sql<number>`${n}::int /* built-per-call */`.as("n")).execute();
      expect(rows).toEqual([{ n }]);
    }
    expect(await countOf("built-per-call")).toBe(0);
  });

  it("a nonce claim, an upsert and a heartbeat batch's lock are prepared once each", async () => {
    const nonces = openNonceStore({ db: handle.db, runtime: { now: () => Date.now() } });
    for (const nonce of ["nonce-1", "nonce-2"])
      expect(await nonces.store.consume("key_prepared", nonce, Date.now() + 60_000)).toBe(true);
    expect(await nonces.store.consume("key_prepared", "nonce-1", Date.now() + 60_000)).toBe(false);
    expect(await countOf("INSERT INTO open_api_nonces")).toBe(1);

    await handle.db
      .insertInto("merchants")
      .values({ id: "m_prepared", name: "Prepared", status: "ACTIVE", created_at: new Date() })
      .execute();
    const upsert = createViewerUpserter({
      db: handle.db,
      moderator: { check: async () => undefined },
      uidRange: { min: 10_000, max: 1_000_000 },
      runtime: systemRuntime,
    });
    for (const externalUserId of ["crm-1", "crm-2", "crm-1"])
      await upsert({ merchantId: "m_prepared", externalUserId });
    expect(await countOf("insert into viewers")).toBe(1);

    const subject: WatchSubject = { webinarId: null, merchantId: null, uid: 1, anonymousId: null };
    for (const playbackId of ["pb_missing_1", "pb_missing_2"]) {
      const [answer] = await commitHeartbeatBatch(handle.db, [
        { playbackId, playing: true, close: false, at: Date.now(), subject },
      ]);
      expect(answer).toMatchObject({ code: "PLAYBACK_NOT_FOUND" });
    }
    expect(await countOf("lock_heartbeat_batch")).toBe(1);
  });
});
