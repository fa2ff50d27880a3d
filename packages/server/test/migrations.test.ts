/**
 * Versioned migrations: a database migrated step by step ends in the same schema, and migration 0003's backfill
 * of the watch statistics from sessions recorded before it equals what the incremental path computes.
 */
import { Kysely, Migrator, sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrateToLatest, migrations } from "../src/db/migrations";
import type { Database } from "../src/db/schema";
import { recordPlaybackSession } from "../src/watch-data/record-session";
import { createPostgresDatabase, DATABASE_KINDS, pgliteSnapshot } from "./support/databases";
import { PGlite } from "@electric-sql/pglite";
import { PGliteDialect } from "kysely-pglite-dialect";
import { PostgresDialect } from "kysely";
import pg from "pg";
import { limits } from "@org/webinar-types";
import { postgresNonceStoreSchema } from "@org/webinar-validator/nonce-store/postgres";

async function openRaw(kind: string): Promise<{ db: Kysely<Database>; close(): Promise<void> }> {
  if (kind === "pglite") {
    const db = new Kysely<Database>({
      dialect: new PGliteDialect(await PGlite.create({ loadDataDir: await pgliteSnapshot() })),
    });
    return { db, close: () => db.destroy() };
  }
  const database = await createPostgresDatabase("migrations");
  const db = new Kysely<Database>({
    dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: database.url }) }),
  });
  return {
    db,
    async close() {
      await db.destroy();
      await database.drop();
    },
  };
}

const sessions = [
  {
    uid: 10_001,
    anonymousId: null,
    mode: "LIVE",
    watchSeconds: 1800,
    deviceType: "DESKTOP",
    protocol: "WEBRTC",
    startedAt: "2026-11-21T08:00:00Z",
  },
  {
    uid: 10_001,
    anonymousId: null,
    mode: "REPLAY",
    watchSeconds: 100,
    deviceType: "MOBILE",
    protocol: null,
    startedAt: "2026-11-21T10:00:00Z",
  },
  {
    uid: 10_002,
    anonymousId: null,
    mode: "LIVE",
    watchSeconds: 60,
    deviceType: "TV",
    protocol: "HLS",
    startedAt: "2026-11-21T08:10:00Z",
  },
  {
    uid: null,
    anonymousId: "anon-1",
    mode: "LIVE",
    watchSeconds: 30,
    deviceType: "UNKNOWN",
    protocol: null,
    startedAt: "2026-11-21T08:20:00Z",
  },
] as const;

describe.each(DATABASE_KINDS)("migrations on %s", (kind) => {
  let backfilled: Awaited<ReturnType<typeof openRaw>>;
  let incremental: Awaited<ReturnType<typeof openRaw>>;

  beforeAll(async () => {
    [backfilled, incremental] = [await openRaw(kind), await openRaw(kind)];
  });
  afterAll(async () => {
    await backfilled?.close();
    await incremental?.close();
  });

  async function seed(db: Kysely<Database>) {
    const now = new Date("2026-11-21T12:00:00Z");
    await db
      .insertInto("merchants")
      .values({ id: "m1", name: "M", watch_origin: null, status: "ACTIVE", created_at: now })
      .execute();
    await db
      .insertInto("webinars")
      .values({
        id: "w1",
        merchant_id: "m1",
        ticket_code: "code-1",
        title: null,
        status: "PUBLISHED",
        live_status: "NOT_STARTED",
        live_started_at: null,
        live_ended_at: null,
        live_finalized_at: null,
        created_at: now,
      })
      .execute();
    for (const uid of [10_001, 10_002]) {
      await db
        .insertInto("viewers")
        .values({
          merchant_id: "m1",
          uid,
          external_user_id: `e${uid}`,
          phone: null,
          display_name: null,
          created_at: now,
          updated_at: now,
        })
        .execute();
    }
  }

  const snapshot = (db: Kysely<Database>) =>
    Promise.all([
      sql`select webinar_id, scope, subject_key, uid, live_seconds::float8 as l, replay_seconds::float8 as r, total_seconds::float8 as t, session_count, first_watched_at, last_watched_at, device_types, protocols from watch_subject_totals order by scope, subject_key`
        .execute(db)
        .then((result) => result.rows),
      sql`select webinar_id, scope, kind, viewer_count, session_count, watch_seconds::float8 as s from watch_totals order by scope, kind`
        .execute(db)
        .then((result) => result.rows),
    ]);

  it("0003 backfills the watch statistics of earlier sessions exactly as recording them does", async () => {
    // Up to 0002, then sessions recorded as they were before 0003 existed (no statistics rows), then the rest.
    const upTo0002 = new Migrator({
      db: backfilled.db,
      provider: {
        getMigrations: async () => ({
          "0001_initial": migrations["0001_initial"]!,
          "0002_issue_login_ticket_function": migrations["0002_issue_login_ticket_function"]!,
        }),
      },
    });
    expect((await upTo0002.migrateToLatest()).error).toBeUndefined();
    await seed(backfilled.db);
    for (const [i, s] of sessions.entries()) {
      await backfilled.db
        .insertInto("playback_sessions")
        .values({
          id: `p${i}`,
          webinar_id: "w1",
          merchant_id: "m1",
          uid: s.uid,
          anonymous_id: s.anonymousId,
          mode: s.mode,
          watch_seconds: s.watchSeconds,
          device_type: s.deviceType,
          protocol: s.protocol,
          started_at: s.startedAt,
          recorded_at: "2026-11-21T12:00:00Z",
        })
        .execute();
    }
    await migrateToLatest(backfilled.db);

    await migrateToLatest(incremental.db);
    await seed(incremental.db);
    for (const [i, s] of sessions.entries()) {
      await incremental.db.transaction().execute((trx) =>
        recordPlaybackSession(trx, {
          id: `p${i}`,
          webinarId: "w1",
          merchantId: "m1",
          uid: s.uid,
          anonymousId: s.anonymousId,
          mode: s.mode,
          watchSeconds: s.watchSeconds,
          deviceType: s.deviceType,
          protocol: s.protocol,
          startedAt: new Date(s.startedAt),
          recordedAt: new Date("2026-11-21T12:00:00Z"),
        }),
      );
    }
    const [subjectsA, totalsA] = await snapshot(backfilled.db);
    const [subjectsB, totalsB] = await snapshot(incremental.db);
    expect(subjectsA).toEqual(subjectsB);
    expect(totalsA).toEqual(totalsB);
    expect(totalsB).toHaveLength(5);
  });

  it("the frozen migrations agree with what they restate: the spec's UID range, the validator's nonce table", async () => {
    const migrated = await openRaw(kind);
    const reference = await openRaw(kind);
    try {
      await migrateToLatest(migrated.db);
      const check = await sql<{ definition: string }>`
        select pg_get_constraintdef(c.oid) as definition from pg_constraint c
        where c.conrelid = 'viewers'::regclass and c.contype = 'c'`.execute(migrated.db);
      expect(check.rows.map((row) => row.definition)).toContainEqual(
        `CHECK (((uid >= ${limits.uidMin}) AND (uid <= ${limits.uidMax})))`,
      );
      for (const statement of postgresNonceStoreSchema("open_api_nonces"))
        await sql.raw(statement).execute(reference.db);
      const layout = (db: Kysely<Database>) =>
        sql`select column_name, data_type, is_nullable from information_schema.columns
            where table_name = 'open_api_nonces' order by column_name`
          .execute(db)
          .then((result) => result.rows);
      const indexes = (db: Kysely<Database>) =>
        sql`select indexname, indexdef from pg_indexes where tablename = 'open_api_nonces' order by indexname`
          .execute(db)
          .then((result) => result.rows);
      expect(await layout(migrated.db)).toEqual(await layout(reference.db));
      expect(await indexes(migrated.db)).toEqual(await indexes(reference.db));
    } finally {
      await migrated.close();
      await reference.close();
    }
  });
});
