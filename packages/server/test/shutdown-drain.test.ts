/**
 * SIGTERM under load, on the real process and PostgreSQL: heartbeats of many viewers and signed upserts keep
 * arriving while the signal comes; the server stops accepting, answers what is in flight, commits its pending
 * heartbeat and nonce batches and exits 0, and every heartbeat and upsert it acknowledged is in the database.
 */
import { createWebinarClient } from "@org/webinar-client";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DATABASE_KINDS, openTestDatabase, type TestDatabase } from "./support/databases";
import { playbackCall } from "./support/playback";
import { adminMerchant, startServerProcess, type ServerProcess } from "./support/server-process";

const VIEWERS = 30;
const HEARTBEAT_LOOPS = 12;
const UPSERT_LOOPS = 4;
const LOAD_BEFORE_SIGNAL_MS = 2500;

interface Viewer {
  playbackId: string;
  cookie: string;
  /** The largest `watchSeconds` an acknowledged heartbeat reported. */
  acknowledged: number;
}

describe.runIf(DATABASE_KINDS.includes("postgres"))("SIGTERM under heartbeat load on PostgreSQL", () => {
  let database: TestDatabase;
  let server: ServerProcess;

  beforeAll(async () => {
    database = await openTestDatabase("postgres", "drain");
    server = await startServerProcess({ ...database.env, WEBINAR_LOG_FORMAT: "json" });
  });
  afterAll(async () => {
    await server?.stop("SIGKILL");
    await database?.close();
  });

  it("answers the requests in flight, commits every batch, exits 0; every acknowledged write is stored", async () => {
    const merchant = await adminMerchant(server);
    const started = await server.admin.POST("/admin/v1/webinars/{ticketCode}/live", {
      params: { path: { ticketCode: merchant.ticketCode } },
      body: { action: "START" },
    });
    expect(started.response.status).toBe(200);
    const viewers: Viewer[] = [];
    for (let index = 0; index < VIEWERS; index += 1) {
      const body = { mode: "LIVE", protocol: "HLS", deviceType: "DESKTOP", ticketCode: merchant.ticketCode };
      const started = await playbackCall(server.url, "start", body);
      expect(started.status).toBe(200);
      viewers.push({ playbackId: started.body.playbackId, cookie: started.setCookie!.split(";")[0]!, acknowledged: 0 });
    }
    const client = createWebinarClient({
      baseUrl: server.url,
      apiKey: merchant.apiKey,
      secret: merchant.secret,
      retry: false,
    });

    let signalledAt = Number.POSITIVE_INFINITY;
    let answeredAfterSignal = 0;
    const upserted: string[] = [];
    // Each loop sends until the server refuses connections; a request cut by the shutdown is simply not counted.
    const heartbeatLoop = async (loop: number) => {
      for (let turn = loop; ; turn += HEARTBEAT_LOOPS) {
        const viewer = viewers[turn % VIEWERS]!;
        const sentAt = Date.now();
        try {
          const answer = await playbackCall(
            server.url,
            "heartbeat",
            { playbackId: viewer.playbackId, playing: true },
            viewer.cookie,
          );
          if (answer.status !== 200) return;
          viewer.acknowledged = Math.max(viewer.acknowledged, answer.body.watchSeconds as number);
          if (sentAt < signalledAt && Date.now() >= signalledAt) answeredAfterSignal += 1;
        } catch {
          return;
        }
      }
    };
    const upsertLoop = async (loop: number) => {
      for (let turn = 0; ; turn += 1) {
        const externalUserId = `drain-${loop}-${turn}`;
        try {
          await client.upsertViewer({ externalUserId });
          upserted.push(externalUserId);
        } catch {
          return;
        }
      }
    };
    const load = [
      ...Array.from({ length: HEARTBEAT_LOOPS }, (_, loop) => heartbeatLoop(loop)),
      ...Array.from({ length: UPSERT_LOOPS }, (_, loop) => upsertLoop(loop)),
    ];
    await new Promise((resolve) => setTimeout(resolve, LOAD_BEFORE_SIGNAL_MS));
    signalledAt = Date.now();
    server.child.kill("SIGTERM");
    await Promise.all(load);
    expect(await server.exited).toBe(0);

    const logs = server.logs();
    expect(logs.map((record) => record.msg)).toEqual(expect.arrayContaining(["shutting down", "closed"]));
    expect(answeredAfterSignal).toBeGreaterThan(0);
    // The load credited real time: some viewer reached whole seconds (so the comparison below compares something).
    expect(Math.max(...viewers.map((viewer) => viewer.acknowledged))).toBeGreaterThan(0);

    const { db } = database.handle;
    const stored = await db
      .selectFrom("playback_sessions")
      .select(["id", "watch_seconds"])
      .where(
        "id",
        "in",
        viewers.map((viewer) => viewer.playbackId),
      )
      .execute();
    const storedSeconds = new Map(stored.map((row) => [row.id, row.watch_seconds]));
    const short = viewers.filter((viewer) => (storedSeconds.get(viewer.playbackId) ?? -1) < viewer.acknowledged);
    expect(short).toEqual([]);

    expect(upserted.length).toBeGreaterThan(0);
    const { rows } = await sql<{ stored: number }>`
      select count(*)::int as stored from viewers where external_user_id = any(${upserted})`.execute(db);
    expect(rows[0]!.stored).toBe(upserted.length);
  }, 60_000);
});
