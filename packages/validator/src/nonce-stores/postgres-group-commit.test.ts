/**
 * Group commit of the PostgreSQL nonce store against the real PostgreSQL at 127.0.0.1:5432 (a database of its own,
 * dropped after): concurrent claims become few statements, a nonce twice in one batch is accepted once, a failing
 * statement rejects every claim it carried and records none, and two stores on two pools accept each nonce once.
 * Statements are counted by a wrapper around a real `pg.Pool`.
 */
import { randomBytes } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestOptions, fixedClock, signedRequest } from "../../test/support/fixture";
import { createRequestVerifier } from "../request-verifier";
import { createPostgresNonceStore, type PostgresNonceStoreOptions, type PostgresQueryable } from "./postgres";

const ADMIN_URL = "postgres://postgres@127.0.0.1:5432/postgres";
const database = `validator_group_commit_${randomBytes(6).toString("hex")}`;
const databaseUrl = `postgres://postgres@127.0.0.1:5432/${database}`;
const admin = new pg.Client({ connectionString: ADMIN_URL });
const pools: pg.Pool[] = [];

function openPool(max = 10): pg.Pool {
  const pool = new pg.Pool({ connectionString: databaseUrl, max });
  // A terminated backend's idle connection reports here; its query has already failed.
  pool.on("error", () => undefined);
  pools.push(pool);
  return pool;
}

let pool: pg.Pool;

beforeAll(async () => {
  await admin.connect();
  await admin.query(`CREATE DATABASE ${database}`);
  pool = openPool();
}, 60_000);

afterAll(async () => {
  await Promise.all(pools.map((opened) => opened.end()));
  await admin.query(`DROP DATABASE IF EXISTS ${database}`);
  await admin.end();
});

const FAR_FUTURE = Date.now() + 3_600_000;
const nonce = () => randomBytes(16).toString("hex");
let tables = 0;
const freshTable = () => `claims_${(tables += 1)}`;

/** A real client that counts the claim statements it sends and the claims each carries. */
function countingClient(inner: PostgresQueryable) {
  const batchSizes: number[] = [];
  const client: PostgresQueryable = {
    query(text, values) {
      if (text.startsWith("INSERT")) batchSizes.push((values as [unknown[]])[0].length);
      return inner.query(text, values);
    },
  };
  return { client, batchSizes };
}

async function storeOn(
  table: string,
  client: PostgresQueryable = pool,
  options: Partial<PostgresNonceStoreOptions> = {},
) {
  const store = createPostgresNonceStore({ client, table, ...options });
  await store.ensureSchema();
  return store;
}

async function rowsOf(table: string): Promise<number> {
  const { rows } = await pool.query(`SELECT count(*)::int AS rows FROM ${table}`);
  return (rows[0] as { rows: number }).rows;
}

/** The backends whose claim statements on `table` wait for its lock, once there are `count` of them. */
async function lockWaiters(table: string, count: number): Promise<number[]> {
  for (;;) {
    const { rows } = await pool.query(
      "SELECT pid FROM pg_stat_activity WHERE datname = $1 AND wait_event_type = 'Lock' AND query LIKE $2",
      [database, `INSERT INTO ${table} %`],
    );
    if (rows.length >= count) return rows.map((row) => (row as { pid: number }).pid);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Holds `table` locked against writes until `release()`, so the statements sent meanwhile wait, in flight. */
async function holdTable(table: string) {
  const holder = await pool.connect();
  await holder.query(`BEGIN; LOCK TABLE ${table} IN EXCLUSIVE MODE`);
  return {
    async release() {
      await holder.query("ROLLBACK");
      holder.release();
    },
  };
}

/** How a claim ended: accepted, a replay, or the error code it was rejected with. */
const outcome = (claim: Promise<boolean>) =>
  claim.then(
    (fresh) => (fresh ? "accepted" : "replay"),
    (error: { code?: string }) => `rejected ${error.code}`,
  );

describe("group commit of nonce claims", () => {
  it("250 claims made at once are written by 3 statements of at most maxBatchSize (100), each accepted", async () => {
    const table = freshTable();
    const { client, batchSizes } = countingClient(pool);
    const nonces = await storeOn(table, client);
    const results = await Promise.all(Array.from({ length: 250 }, () => nonces.consume("key", nonce(), FAR_FUTURE)));
    expect(results.every(Boolean)).toBe(true);
    expect(batchSizes).toEqual([100, 100, 50]);
    expect(await rowsOf(table)).toBe(250);
  });

  it("40 clients each claiming 10 nonces in turn: 400 claims in far fewer statements, every claim recorded", async () => {
    const table = freshTable();
    const { client, batchSizes } = countingClient(pool);
    const nonces = await storeOn(table, client);
    const results = await Promise.all(
      Array.from({ length: 40 }, async () => {
        const accepted: boolean[] = [];
        for (let turn = 0; turn < 10; turn += 1) accepted.push(await nonces.consume("key", nonce(), FAR_FUTURE));
        return accepted;
      }),
    );
    expect(results.flat().filter(Boolean)).toHaveLength(400);
    expect(batchSizes.reduce((sum, size) => sum + size, 0)).toBe(400);
    expect(batchSizes.length).toBeLessThanOrEqual(40);
    expect(await rowsOf(table)).toBe(400);
  });

  it("a nonce sent twice within one batch is accepted once, for its first claim", async () => {
    const { client, batchSizes } = countingClient(pool);
    const nonces = await storeOn(freshTable(), client);
    const [twice, other] = [nonce(), nonce()];
    const results = await Promise.all([
      nonces.consume("key", twice, FAR_FUTURE),
      nonces.consume("key", other, FAR_FUTURE),
      nonces.consume("key", twice, FAR_FUTURE),
      nonces.consume("other-key", twice, FAR_FUTURE),
    ]);
    expect(results).toEqual([true, true, false, true]);
    expect(batchSizes).toEqual([3]);
  });

  it("an expired nonce claimed twice within one batch is taken over once", async () => {
    let now = 1_000_000;
    const { client, batchSizes } = countingClient(pool);
    const nonces = await storeOn(freshTable(), client, { now: () => now });
    const reused = nonce();
    expect(await nonces.consume("key", reused, 1_600_000)).toBe(true);
    now = 1_600_000;
    const results = await Promise.all([
      nonces.consume("key", reused, 2_200_000),
      nonces.consume("key", reused, 2_200_000),
      nonces.consume("key", nonce(), 2_200_000),
    ]);
    expect(results).toEqual([true, false, true]);
    expect(batchSizes).toEqual([1, 2]);
  });

  it("groupCommit: false writes each claim by a statement of its own", async () => {
    const { client, batchSizes } = countingClient(pool);
    const nonces = await storeOn(freshTable(), client, { groupCommit: false });
    const results = await Promise.all(Array.from({ length: 10 }, () => nonces.consume("key", nonce(), FAR_FUTURE)));
    expect(results.every(Boolean)).toBe(true);
    expect(batchSizes).toEqual(Array.from({ length: 10 }, () => 1));
  });

  it.each([0, -1, 2.5, Number.NaN])("refuses groupCommit.maxBatchSize %s", (maxBatchSize) => {
    expect(() => createPostgresNonceStore({ client: pool, groupCommit: { maxBatchSize } })).toThrow(RangeError);
  });
});

describe("a statement that fails in the middle of a batch", () => {
  it("a row the table refuses: every claim of the batch is rejected, none is recorded, and they can be claimed after", async () => {
    const table = freshTable();
    const nonces = await storeOn(table);
    const refused = `refused${nonce()}`;
    await pool.query(`ALTER TABLE ${table} ADD CONSTRAINT no_refused CHECK (nonce <> '${refused}')`);
    const batch = [nonce(), nonce(), refused, nonce(), nonce()];
    const outcomes = await Promise.all(batch.map((used) => outcome(nonces.consume("key", used, FAR_FUTURE))));
    expect(outcomes).toEqual(batch.map(() => "rejected 23514"));
    expect(await rowsOf(table)).toBe(0);
    const retried = batch.filter((used) => used !== refused);
    expect(await Promise.all(retried.map((used) => nonces.consume("key", used, FAR_FUTURE)))).toEqual(
      retried.map(() => true),
    );
  });

  it("its backend terminated while it waits: every claim of the batch is rejected, none is recorded", async () => {
    const table = freshTable();
    const nonces = await storeOn(table, openPool(2));
    // Another session holds the table, so the batch's INSERT waits for its lock, in flight, until terminated.
    const held = await holdTable(table);
    const batch = Array.from({ length: 20 }, () => nonce());
    const outcomes = Promise.all(batch.map((used) => outcome(nonces.consume("key", used, FAR_FUTURE))));
    const [waiting] = await lockWaiters(table, 1);
    await pool.query("SELECT pg_terminate_backend($1)", [waiting]);
    expect(await outcomes).toEqual(batch.map(() => "rejected 57P01"));
    await held.release();
    expect(await rowsOf(table)).toBe(0);
    // The pool replaces the lost connection: the same nonces are still unused.
    expect(await Promise.all(batch.map((used) => nonces.consume("key", used, FAR_FUTURE)))).toEqual(
      batch.map(() => true),
    );
  });
});

describe("a failing batch in the verifier", () => {
  it("every request of the batch -> 503 AUTH_DEPENDENCY_UNAVAILABLE, told to onError; sent again, each is accepted", async () => {
    const table = freshTable();
    const { client, batchSizes } = countingClient(pool);
    const nonces = await storeOn(table, client, { now: fixedClock });
    const refused = `refused${nonce()}`;
    await pool.query(`ALTER TABLE ${table} ADD CONSTRAINT no_refused CHECK (nonce <> '${refused}')`);
    const failures: string[] = [];
    const verifier = createRequestVerifier(
      createTestOptions({ nonceStore: nonces, onError: (_error, source) => failures.push(source) }),
    );
    const requests = [nonce(), refused, nonce(), nonce()].map((used) => {
      const wire = signedRequest({
        path: "/api/v1/open/viewers/upsert",
        body: '{"externalUserId":"crm-1"}',
        nonce: used,
      });
      return { method: wire.method, rawPath: wire.path, headers: wire.headers, body: wire.body };
    });
    // A claim waiting on the held table keeps a statement in flight, so the four requests' claims gather into the
    // next batch, the one the table refuses.
    const held = await holdTable(table);
    const plug = nonces.consume("key", nonce(), FAR_FUTURE);
    await lockWaiters(table, 1);
    const answers = Promise.all(requests.map((request) => verifier.verify(request)));
    // The verifications reach their claims in promise jobs alone, all run before this timer fires.
    await new Promise((resolve) => setTimeout(resolve, 0));
    await held.release();
    expect(await plug).toBe(true);
    for (const answer of await answers)
      expect(answer).toMatchObject({
        ok: false,
        status: 503,
        body: { error: { code: "AUTH_DEPENDENCY_UNAVAILABLE" } },
      });
    expect(failures).toEqual(["nonceStore", "nonceStore", "nonceStore", "nonceStore"]);
    expect(batchSizes).toEqual([1, 4]);
    const retried = await Promise.all(
      requests.filter((_, index) => index !== 1).map((request) => verifier.verify(request)),
    );
    expect(retried.map((answer) => answer.ok)).toEqual([true, true, true]);
  });
});

describe("exactly once across processes", () => {
  it("two stores on two pools, each claiming every one of 300 nonces twice at once: each nonce is accepted once", async () => {
    const table = freshTable();
    const first = countingClient(openPool(5));
    const second = countingClient(openPool(5));
    const stores = [await storeOn(table, first.client), await storeOn(table, second.client)];
    const used = Array.from({ length: 300 }, () => nonce());
    // Each store claims in its own order, so batches of the two share nonces in different orders; the table held
    // until all ten statements (five per pool) are sent makes them run at the same time once it is released.
    const orders = [used, [...used].reverse()];
    const held = await holdTable(table);
    const claims = stores.flatMap((store, index) =>
      [0, 1].flatMap(() =>
        orders[index]!.map((claimed) =>
          store.consume("key", claimed, FAR_FUTURE).then((fresh) => ({ claimed, fresh })),
        ),
      ),
    );
    await lockWaiters(table, 10);
    await held.release();
    const results = await Promise.all(claims);
    const acceptedPerNonce = new Map(used.map((claimed) => [claimed, 0]));
    for (const { claimed, fresh } of results)
      if (fresh) acceptedPerNonce.set(claimed, acceptedPerNonce.get(claimed)! + 1);
    expect([...acceptedPerNonce.values()].every((accepted) => accepted === 1)).toBe(true);
    expect(await rowsOf(table)).toBe(300);
    // Far fewer statements than the 1200 claims.
    expect(first.batchSizes.length + second.batchSizes.length).toBeLessThan(100);
  });
});

describe("onWrite and drain", () => {
  it("onWrite is told of each statement: the claims it carried, its time, no error", async () => {
    const written: { size: number; durationMs: number; error: unknown }[] = [];
    const nonces = await storeOn(freshTable(), pool, { groupCommit: { onWrite: (write) => written.push(write) } });
    await Promise.all(Array.from({ length: 120 }, () => nonces.consume("key", nonce(), FAR_FUTURE)));
    // The full batch and the rest are written at once, so they may finish in either order.
    expect(written.map((write) => write.size).sort((a, b) => a - b)).toEqual([20, 100]);
    expect(written.every((write) => write.error === undefined && write.durationMs > 0)).toBe(true);
  });

  it("drain() resolves once the claims waiting behind a statement in flight are committed", async () => {
    const table = freshTable();
    const nonces = await storeOn(table, pool);
    const held = await holdTable(table);
    const claims = Array.from({ length: 5 }, () => nonces.consume("key", nonce(), FAR_FUTURE));
    await lockWaiters(table, 1);
    const drained = nonces.drain().then(() => rowsOf(table));
    await held.release();
    expect(await drained).toBe(5);
    expect(await Promise.all(claims)).toEqual([true, true, true, true, true]);
  });

  it("drain() of a store without group commit, or with nothing pending, resolves at once", async () => {
    const single = await storeOn(freshTable(), pool, { groupCommit: false });
    expect(await single.consume("key", nonce(), FAR_FUTURE)).toBe(true);
    await expect(single.drain()).resolves.toBeUndefined();
    const idle = await storeOn(freshTable(), pool);
    await expect(idle.drain()).resolves.toBeUndefined();
  });
});
