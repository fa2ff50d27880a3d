/**
 * The PostgreSQL nonce store against the real PostgreSQL at 127.0.0.1:5432 (a database of its own, dropped after)
 * through a `pg.Pool`, and against PGlite: the same table of cases for both clients, concurrency included.
 */
import { randomBytes } from "node:crypto";
import { PGlite } from "@electric-sql/pglite";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestOptions, fixedClock, signedRequest } from "../../test/support/fixture";
import { createRequestVerifier } from "../request-verifier";
import { createPostgresNonceStore, postgresNonceStoreSchema, type PostgresQueryable } from "./postgres";

const ADMIN_URL = "postgres://postgres@127.0.0.1:5432/postgres";
const database = `validator_nonces_${randomBytes(6).toString("hex")}`;
const admin = new pg.Client({ connectionString: ADMIN_URL });
let pool: pg.Pool;
let pglite: PGlite;

beforeAll(async () => {
  await admin.connect();
  await admin.query(`CREATE DATABASE ${database}`);
  pool = new pg.Pool({ connectionString: `postgres://postgres@127.0.0.1:5432/${database}`, max: 10 });
  pglite = new PGlite();
}, 60_000);

afterAll(async () => {
  await pool?.end();
  await pglite?.close();
  await admin.query(`DROP DATABASE IF EXISTS ${database}`);
  await admin.end();
});

/** A mutable clock shared by the stores of one case. */
const clock = (start = 1_000_000) => {
  let now = start;
  return { now: () => now, set: (at: number) => (now = at) };
};

const nonce = () => randomBytes(16).toString("hex");
let tables = 0;
const freshTable = () => `nonces_${(tables += 1)}`;

const clients: Array<[string, () => PostgresQueryable]> = [
  ["pg.Pool on PostgreSQL", () => pool],
  ["PGlite", () => pglite],
];

describe.each(clients)("createPostgresNonceStore with %s", (_name, client) => {
  async function store(now = clock().now) {
    const created = createPostgresNonceStore({ client: client(), table: freshTable(), now });
    await created.ensureSchema();
    return created;
  }

  it("OPEN_API_REPLAYED: the first use is accepted, the second is a replay", async () => {
    const nonces = await store();
    const used = nonce();
    expect(await nonces.consume("key", used, 2_000_000)).toBe(true);
    expect(await nonces.consume("key", used, 2_000_000)).toBe(false);
  });

  it("nonces are scoped to the API key", async () => {
    const nonces = await store();
    const used = nonce();
    expect(await nonces.consume("key-a", used, 2_000_000)).toBe(true);
    expect(await nonces.consume("key-b", used, 2_000_000)).toBe(true);
  });

  it("a nonce is a replay until it expires, and may be used again after", async () => {
    const time = clock(1_000_000);
    const nonces = await store(time.now);
    const used = nonce();
    expect(await nonces.consume("key", used, 1_600_000)).toBe(true);
    time.set(1_599_999);
    expect(await nonces.consume("key", used, 2_199_999)).toBe(false);
    time.set(1_600_000);
    expect(await nonces.consume("key", used, 2_200_000)).toBe(true);
    expect(await nonces.consume("key", used, 2_200_000)).toBe(false);
  });

  it("atomic: of 40 concurrent uses of one nonce exactly one is accepted", async () => {
    const nonces = await store();
    const used = nonce();
    const results = await Promise.all(Array.from({ length: 40 }, () => nonces.consume("key", used, 2_000_000)));
    expect(results.filter(Boolean)).toHaveLength(1);
  });

  it("atomic: 40 concurrent uses of one expired nonce take it over exactly once", async () => {
    const time = clock(1_000_000);
    const nonces = await store(time.now);
    const used = nonce();
    await nonces.consume("key", used, 1_500_000);
    time.set(1_500_000);
    const results = await Promise.all(Array.from({ length: 40 }, () => nonces.consume("key", used, 2_100_000)));
    expect(results.filter(Boolean)).toHaveLength(1);
  });

  it("prune removes the expired nonces only, and says how many", async () => {
    const time = clock(1_000_000);
    const nonces = await store(time.now);
    const live = nonce();
    for (const expiresAt of [1_100_000, 1_200_000, 1_300_000]) await nonces.consume("key", nonce(), expiresAt);
    await nonces.consume("key", live, 5_000_000);
    time.set(1_200_000);
    expect(await nonces.prune()).toBe(2);
    expect(await nonces.prune()).toBe(0);
    expect(await nonces.consume("key", live, 5_000_000)).toBe(false);
  });

  it("ensureSchema is idempotent, also run by several processes starting at once", async () => {
    const table = freshTable();
    const starting = Array.from({ length: 6 }, () => createPostgresNonceStore({ client: client(), table }));
    await Promise.all(starting.map((nonces) => nonces.ensureSchema()));
    await starting[0]!.ensureSchema();
    expect(await starting[0]!.consume("key", nonce(), Date.now() + 1000)).toBe(true);
  });
});

describe("createPostgresNonceStore in the verifier", () => {
  it("a replayed request -> 409 OPEN_API_REPLAYED, also from a second verifier (another process) on the same table", async () => {
    // The store's clock is the verifier's (the tests' fixed clock), as in a real deployment both read the system clock.
    const storeOnTable = (table: string) => createPostgresNonceStore({ client: pool, table, now: fixedClock });
    const table = freshTable();
    const first = createRequestVerifier(createTestOptions({ nonceStore: storeOnTable(table) }));
    const second = createRequestVerifier(createTestOptions({ nonceStore: storeOnTable(table) }));
    await storeOnTable(table).ensureSchema();
    const wire = signedRequest({ path: "/api/v1/open/viewers/upsert", body: '{"externalUserId":"crm-1"}' });
    const incoming = { method: wire.method, rawPath: wire.path, headers: wire.headers, body: wire.body };
    expect(await first.verify(incoming)).toMatchObject({ ok: true });
    expect(await second.verify(incoming)).toMatchObject({
      ok: false,
      status: 409,
      body: { error: { code: "OPEN_API_REPLAYED" } },
    });
  });

  it("an unreachable database -> 503 AUTH_DEPENDENCY_UNAVAILABLE, told to onError", async () => {
    const closed = new pg.Pool({ connectionString: `postgres://postgres@127.0.0.1:5432/${database}` });
    await closed.end();
    const errors: string[] = [];
    const verifier = createRequestVerifier(
      createTestOptions({
        nonceStore: createPostgresNonceStore({ client: closed }),
        onError: (_error, source) => errors.push(source),
      }),
    );
    const wire = signedRequest({ path: "/api/v1/open/viewers/upsert", body: '{"externalUserId":"crm-1"}' });
    expect(
      await verifier.verify({ method: wire.method, rawPath: wire.path, headers: wire.headers, body: wire.body }),
    ).toMatchObject({
      ok: false,
      status: 503,
      body: { error: { code: "AUTH_DEPENDENCY_UNAVAILABLE" } },
    });
    expect(errors).toEqual(["nonceStore"]);
  });
});

describe("postgresNonceStoreSchema", () => {
  it("a schema-qualified table works, its index in the same schema", async () => {
    await pool.query("CREATE SCHEMA IF NOT EXISTS webinar");
    const nonces = createPostgresNonceStore({ client: pool, table: "webinar.nonces" });
    await nonces.ensureSchema();
    expect(await nonces.consume("key", nonce(), Date.now() + 1000)).toBe(true);
    const { rows } = await pool.query("SELECT schemaname FROM pg_indexes WHERE indexname = 'nonces_expires_idx'");
    expect(rows).toEqual([{ schemaname: "webinar" }]);
  });

  it.each(["nonces; DROP TABLE x", "Nonces", "a.b.c", "1nonces", ""])("refuses the table name %j", (table) => {
    expect(() => postgresNonceStoreSchema(table)).toThrow(TypeError);
    expect(() => createPostgresNonceStore({ client: pool, table })).toThrow(TypeError);
  });

  it("refuses a client without query()", () => {
    expect(() => createPostgresNonceStore({ client: {} as PostgresQueryable })).toThrow(/query/);
  });
});
