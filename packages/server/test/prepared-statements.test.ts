/**
 * db/prepared-statements.ts on PostgreSQL: the statements of fixed text (a prepared query, a heartbeat batch's
 * locking read, a nonce claim) are prepared once on the connection and reused, with each run's values; a query
 * built per call is never prepared, so what a connection holds is bounded by the code. The pool has one
 * connection here, so `pg_prepared_statements` (which lists only its own session's) sees every statement.
 */
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openNonceStore } from "../src/auth/nonce-stores";
import { connectDatabase, type DatabaseHandle } from "../src/db/connect";
import { prepareQuery } from "../src/db/prepared-query";
import { runPrepared } from "../src/db/prepared-statements";
import { commitHeartbeatBatch } from "../src/watch/heartbeat-batch";
import type { WatchSubject } from "../src/watch/subject";
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

  it("a prepared query is prepared once and runs with each call's values", async () => {
    const { db } = handle;
    const echo = prepareQuery<{ n: number }, { twice: number }>(db, (value) =>
      db.selectNoFrom(sql<number>`${value("n")}::int * 2 /* echo-twice */`.as("twice")),
    );
    expect(await echo({ n: 2 })).toEqual([{ twice: 4 }]);
    expect(await echo({ n: 21 })).toEqual([{ twice: 42 }]);
    const rows = (await prepared()).filter((row) => row.statement.includes("echo-twice"));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.name).toMatch(/^webinar_[0-9a-f]{32}$/);
  });

  it("a raw statement of fixed text run through runPrepared is prepared once", async () => {
    for (const n of [1, 2, 3]) {
      const { rows } = await runPrepared(handle.db, sql<{ n: number }>`select ${n}::int as n /* raw-fixed */`);
      expect(rows).toEqual([{ n }]);
    }
    expect(await countOf("raw-fixed")).toBe(1);
  });

  it("a query built per call is not prepared", async () => {
    for (const n of [1, 2]) {
      const rows = await handle.db.selectNoFrom(sql<number>`${n}::int /* built-per-call */`.as("n")).execute();
      expect(rows).toEqual([{ n }]);
    }
    expect(await countOf("built-per-call")).toBe(0);
  });

  it("a nonce claim and a heartbeat batch's locking read are prepared", async () => {
    const nonces = openNonceStore({ db: handle.db, runtime: { now: () => Date.now() } });
    expect(await nonces.store.consume("key_prepared", "nonce-1", Date.now() + 60_000)).toBe(true);
    expect(await nonces.store.consume("key_prepared", "nonce-1", Date.now() + 60_000)).toBe(false);
    expect(await countOf("INSERT INTO open_api_nonces")).toBe(1);

    const subject: WatchSubject = { webinarId: null, merchantId: null, uid: 1, anonymousId: null };
    for (const playbackId of ["pb_missing_1", "pb_missing_2"]) {
      const [answer] = await commitHeartbeatBatch(handle.db, [
        { playbackId, playing: true, close: false, at: Date.now(), subject },
      ]);
      expect(answer).toMatchObject({ code: "PLAYBACK_NOT_FOUND" });
    }
    expect(await countOf("for update of s")).toBe(1);
  });
});
