/**
 * Watch data across a webinar's life, end to end on PGlite and PostgreSQL through @org/webinar-client: the
 * watch-page playback API with an injected clock (crediting cap, pause, heartbeats after the end not credited as
 * LIVE, REPLAY only once the live ended), the dataState sequence, numbers adding up, the background finalizer
 * (grace, restart in the middle, two server instances finalizing once), and keyset paging through 2,000 bulk-seeded
 * viewers in every sort with page size 7.
 */
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ViewerWatchRecord, WatchOverview } from "@org/webinar-types";
import { connectDatabase } from "../src/db/connect";
import { bulkSeedWatchData, seededViewer } from "./support/bulk-seed";
import { creditedSegment } from "../src/watch-data/crediting-rules";
import { DATABASE_KINDS, openTestDatabase, type TestDatabase } from "./support/databases";
import { playbackCall } from "./support/playback";
import { useServerPerFile } from "./support/server-per-file";
import { testClock } from "./support/test-clock";
import { apiError, startTestServer, type TestServer } from "./support/harness";

const WIDE_SKEW = { WEBINAR_CLOCK_SKEW_SECONDS: "86400", WEBINAR_FINALIZE_POLL_MS: "50" };

function addsUp(overview: WatchOverview): void {
  expect(overview.all).toEqual({
    viewerCount: overview.registered.viewerCount + overview.anonymous.viewerCount,
    sessionCount: overview.registered.sessionCount + overview.anonymous.sessionCount,
    watchSeconds: overview.registered.watchSeconds + overview.anonymous.watchSeconds,
  });
}

describe.each(DATABASE_KINDS)("watch lifecycle on %s", (kind) => {
  const clock = testClock();
  const fixture = useServerPerFile(
    kind,
    "lifecycle",
    { ...WIDE_SKEW, WEBINAR_FINALIZE_GRACE_SECONDS: "60" },
    { runtime: clock },
  );

  const newWebinar = async () =>
    (await fixture.api.admin("POST", `/admin/v1/merchants/${fixture.merchant.merchantId}/webinars`, {})).body
      .ticketCode as string;
  const live = async (code: string, action: string) =>
    expect((await fixture.api.admin("POST", `/admin/v1/webinars/${code}/live`, { action })).status).toBe(200);
  const overview = async (ticketCode: string, playbackMode: "ALL" | "LIVE" | "REPLAY") =>
    fixture.merchant.client.getWatchOverview({ ticketCode, playbackMode });

  const play = (action: string, body: Record<string, unknown>, cookie?: string) =>
    playbackCall(fixture.api.url, action, body, cookie);

  async function watchSession(code: string, externalUserId: string): Promise<{ uid: number; cookie: string }> {
    const { viewer } = await fixture.merchant.client.upsertViewer({ externalUserId });
    const { loginTicket } = await fixture.merchant.client.issueLoginTicket({ uid: viewer.uid, ticketCode: code });
    const exchanged = await fixture.api.exchange(code, loginTicket);
    expect(exchanged.status).toBe(200);
    return { uid: viewer.uid, cookie: exchanged.headers.get("set-cookie")!.split(";")[0]! };
  }

  it("playback API through a webinar's life: crediting cap, pause, end, replay, finalization by the background job", async () => {
    clock.set(Date.now());
    const code = await newWebinar();
    const a = await watchSession(code, `life-${kind}-a`);
    expect((await overview(code, "LIVE")).dataState).toBe("PROVISIONAL");

    // Not live yet: LIVE cannot start; REPLAY neither (no ended live).
    expect(
      (await play("start", { mode: "LIVE", protocol: "WEBRTC", deviceType: "DESKTOP" }, a.cookie)).body.error.code,
    ).toBe("PLAYBACK_NOT_AVAILABLE");
    expect((await play("start", { mode: "REPLAY", protocol: "HLS", deviceType: "DESKTOP" }, a.cookie)).status).toBe(
      409,
    );
    // No session cookie and no ticketCode: 401.
    expect((await play("start", { mode: "LIVE", protocol: "HLS", deviceType: "DESKTOP" })).status).toBe(401);

    await live(code, "START");
    const started = await play("start", { mode: "LIVE", protocol: "WEBRTC", deviceType: "DESKTOP" }, a.cookie);
    expect(started.status).toBe(200);
    expect(started.body.heartbeatIntervalSeconds).toBe(15);
    const playbackId = started.body.playbackId as string;
    const anon = await play("start", { mode: "LIVE", protocol: "HLS", deviceType: "MOBILE", ticketCode: code });
    expect(anon.status).toBe(200);
    const anonCookie = anon.setCookie!.split(";")[0]!;
    expect(anonCookie).toMatch(/^webinar_anon=anon_/);

    clock.advance(10);
    expect((await play("heartbeat", { playbackId, playing: true }, a.cookie)).body.creditedSeconds).toBe(10);
    clock.advance(10);
    expect((await play("heartbeat", { playbackId, playing: false }, a.cookie)).body.creditedSeconds).toBe(0);
    clock.advance(3600); // a closed laptop: at most twice the interval
    expect((await play("heartbeat", { playbackId, playing: true }, a.cookie)).body.creditedSeconds).toBe(30);
    expect(
      (await play("heartbeat", { playbackId: anon.body.playbackId, playing: true }, anonCookie)).body.creditedSeconds,
    ).toBe(30);
    // Someone else's playback: 404.
    expect((await play("heartbeat", { playbackId, playing: true }, anonCookie)).status).toBe(404);

    expect((await overview(code, "LIVE")).dataState).toBe("PROVISIONAL");
    expect(
      (
        await apiError(
          fixture.merchant.client.queryViewerWatch({
            ticketCode: code,
            playbackMode: "LIVE",
            sort: "WATCH_SECONDS_DESC",
            pageSize: 10,
          }),
        )
      ).code,
    ).toBe("WATCH_DATA_NOT_FINAL");

    clock.advance(5);
    await live(code, "END");
    expect((await overview(code, "LIVE")).dataState).toBe("FINALIZING");
    expect((await overview(code, "ALL")).dataState).toBe("FINALIZING"); // no replay data yet
    clock.advance(10);
    // Credited up to the end only, then nothing more as LIVE.
    expect((await play("heartbeat", { playbackId, playing: true }, a.cookie)).body.creditedSeconds).toBe(5);
    clock.advance(10);
    expect((await play("heartbeat", { playbackId, playing: true }, a.cookie)).body.creditedSeconds).toBe(0);
    expect((await play("start", { mode: "LIVE", protocol: "WEBRTC", deviceType: "DESKTOP" }, a.cookie)).status).toBe(
      409,
    );

    // Replay is available once the live ended.
    const replay = await play("start", { mode: "REPLAY", protocol: "HLS", deviceType: "TABLET" }, a.cookie);
    expect(replay.status).toBe(200);
    clock.advance(12);
    expect((await play("stop", { playbackId: replay.body.playbackId }, a.cookie)).body).toMatchObject({
      creditedSeconds: 12,
      ended: true,
    });
    expect(
      (await play("heartbeat", { playbackId: replay.body.playbackId, playing: true }, a.cookie)).body.creditedSeconds,
    ).toBe(0);

    const liveView = await overview(code, "LIVE");
    expect(liveView.dataState).toBe("FINALIZING");
    expect(liveView.registered).toEqual({ viewerCount: 1, sessionCount: 1, watchSeconds: 45 });
    expect(liveView.anonymous).toEqual({ viewerCount: 1, sessionCount: 1, watchSeconds: 30 });
    expect(liveView.liveWatchSeconds).toBe(75);
    expect(liveView.replayWatchSeconds).toBe(0);
    const allView = await overview(code, "ALL");
    expect(allView.dataState).toBe("PROVISIONAL");
    addsUp(allView);
    addsUp(liveView);
    expect(allView.all.watchSeconds).toBe(allView.liveWatchSeconds + allView.replayWatchSeconds);
    expect(allView.replayWatchSeconds).toBe(12);

    // The grace (60 s) passes: the background job finalizes; waitForLiveFinal sees FINAL.
    clock.advance(61);
    const final = await fixture.merchant.client.waitForLiveFinal(code, { intervalMs: 50, timeoutMs: 10_000 });
    expect(final.dataState).toBe("FINAL");
    expect(final.liveWatchSeconds).toBe(75);
    // The anonymous subject's open LIVE session was closed by the finalizer: never credited again.
    clock.advance(5);
    expect(
      (await play("heartbeat", { playbackId: anon.body.playbackId, playing: true }, anonCookie)).body,
    ).toMatchObject({ creditedSeconds: 0, ended: true });

    const [record] = (
      await fixture.merchant.client.queryViewerWatch({
        ticketCode: code,
        playbackMode: "ALL",
        sort: "WATCH_SECONDS_DESC",
        pageSize: 10,
      })
    ).items as ViewerWatchRecord[];
    expect(record).toMatchObject({
      uid: a.uid,
      liveWatchSeconds: 45,
      replayWatchSeconds: 12,
      totalWatchSeconds: 57,
      sessionCount: 2,
      deviceTypes: ["DESKTOP", "TABLET"],
      protocols: ["HLS", "WEBRTC"],
    });
    expect(record).not.toHaveProperty("phone");
    // Admin finalize afterwards: idempotent, the first finalization time is kept.
    const again = await fixture.api.admin("POST", `/admin/v1/webinars/${code}/finalize`, {});
    expect(again.status).toBe(200);
    expect(Date.parse(again.body.finalizedAt)).toBeLessThanOrEqual(clock.now());
    expect((await fixture.api.admin("POST", `/admin/v1/webinars/${code}/finalize`, {})).body.finalizedAt).toBe(
      again.body.finalizedAt,
    );
  });

  it("the admin import and the playback API record the same facts into the same rollups", async () => {
    clock.set(Date.now());
    const code = await newWebinar();
    const a = await watchSession(code, `both-${kind}-a`);
    await live(code, "START");
    const { body } = await play("start", { mode: "LIVE", protocol: "HLS", deviceType: "MOBILE" }, a.cookie);
    clock.advance(20);
    expect((await play("stop", { playbackId: body.playbackId, playing: true }, a.cookie)).body).toMatchObject({
      creditedSeconds: 20,
      watchSeconds: 20,
      ended: true,
    });
    const imported = await fixture.api.admin("POST", `/admin/v1/webinars/${code}/playback-sessions`, {
      subject: { uid: a.uid },
      mode: "LIVE",
      watchSeconds: 40,
      deviceType: "DESKTOP",
      protocol: "WEBRTC",
    });
    expect(imported.status).toBe(201);
    const view = await overview(code, "LIVE");
    expect(view.registered).toEqual({ viewerCount: 1, sessionCount: 2, watchSeconds: 60 });
    addsUp(view);
    await live(code, "END");
    expect((await fixture.api.admin("POST", `/admin/v1/webinars/${code}/finalize`, {})).status).toBe(200);
    const { items } = await fixture.merchant.client.queryViewerWatch({
      ticketCode: code,
      playbackMode: "LIVE",
      sort: "LAST_WATCHED_DESC",
      pageSize: 5,
    });
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({
      uid: a.uid,
      liveWatchSeconds: 60,
      totalWatchSeconds: 60,
      sessionCount: 2,
      deviceTypes: ["DESKTOP", "MOBILE"],
      protocols: ["HLS", "WEBRTC"],
    });
  });

  it("one viewer playing in two tabs at once is credited each moment once; another viewer is not affected", async () => {
    clock.set(Date.now());
    const code = await newWebinar();
    const a = await watchSession(code, `tabs-${kind}-a`);
    const b = await watchSession(code, `tabs-${kind}-b`);
    await live(code, "START");
    const tab1 = (await play("start", { mode: "LIVE", protocol: "HLS", deviceType: "DESKTOP" }, a.cookie)).body
      .playbackId as string;
    const other = (await play("start", { mode: "LIVE", protocol: "HLS", deviceType: "DESKTOP" }, b.cookie)).body
      .playbackId as string;
    clock.advance(5);
    const tab2 = (await play("start", { mode: "LIVE", protocol: "WEBRTC", deviceType: "MOBILE" }, a.cookie)).body
      .playbackId as string;
    clock.advance(10);
    // t=15: tab 1 earns 0..15; tab 2's 5..15 was already credited to this viewer.
    expect((await play("heartbeat", { playbackId: tab1, playing: true }, a.cookie)).body).toMatchObject({
      creditedSeconds: 15,
      watchSeconds: 15,
    });
    expect((await play("heartbeat", { playbackId: tab2, playing: true }, a.cookie)).body).toMatchObject({
      creditedSeconds: 0,
      watchSeconds: 0,
    });
    clock.advance(10);
    // t=25: whichever tab reports first earns 15..25, the other nothing; tab 1 then pauses and tab 2 plays on alone.
    expect((await play("heartbeat", { playbackId: tab2, playing: true }, a.cookie)).body).toMatchObject({
      creditedSeconds: 10,
      watchSeconds: 10,
    });
    expect((await play("stop", { playbackId: tab1, playing: true }, a.cookie)).body).toMatchObject({
      creditedSeconds: 0,
      watchSeconds: 15,
    });
    clock.advance(6);
    expect((await play("stop", { playbackId: tab2, playing: true }, a.cookie)).body).toMatchObject({
      creditedSeconds: 6,
      watchSeconds: 16,
    });
    expect((await play("stop", { playbackId: other, playing: true }, b.cookie)).body).toMatchObject({
      creditedSeconds: 30,
      watchSeconds: 30,
    });

    const view = await overview(code, "LIVE");
    expect(view.registered).toEqual({ viewerCount: 2, sessionCount: 3, watchSeconds: 31 + 30 });
    addsUp(view);
    await live(code, "END");
    expect((await fixture.api.admin("POST", `/admin/v1/webinars/${code}/finalize`, {})).status).toBe(200);
    const { items } = await fixture.merchant.client.queryViewerWatch({
      ticketCode: code,
      playbackMode: "LIVE",
      sort: "WATCH_SECONDS_DESC",
      pageSize: 5,
      uids: [a.uid],
    });
    expect(items).toEqual([
      expect.objectContaining({ uid: a.uid, liveWatchSeconds: 31, totalWatchSeconds: 31, sessionCount: 2 }),
    ]);
  });

  it("final live figures stay final: a LIVE import after finalization is refused with 409 LIVE_DATA_FINAL, REPLAY still recorded", async () => {
    clock.set(Date.now());
    const code = await newWebinar();
    const a = await watchSession(code, `final-${kind}-a`);
    await live(code, "START");
    const imported = (mode: "LIVE" | "REPLAY") =>
      fixture.api.admin("POST", `/admin/v1/webinars/${code}/playback-sessions`, {
        subject: { uid: a.uid },
        mode,
        watchSeconds: 40,
      });
    expect((await imported("LIVE")).status).toBe(201);
    await live(code, "END");
    // FINALIZING: the backfill of the live is still accepted.
    expect((await imported("LIVE")).status).toBe(201);
    const finalized = await fixture.api.admin("POST", `/admin/v1/webinars/${code}/finalize`, {});
    expect(finalized.status).toBe(200);
    const before = await overview(code, "LIVE");
    expect(before).toMatchObject({ dataState: "FINAL", liveWatchSeconds: 80 });

    const refused = await imported("LIVE");
    expect(refused).toMatchObject({
      status: 409,
      body: { error: { code: "LIVE_DATA_FINAL", details: { finalizedAt: finalized.body.finalizedAt } } },
    });
    const after = await overview(code, "LIVE");
    expect({ ...after, requestId: undefined }).toEqual({ ...before, requestId: undefined });
    expect((await imported("REPLAY")).status).toBe(201);
    expect((await overview(code, "REPLAY")).replayWatchSeconds).toBe(40);
  });

  it("a restart in the middle of finalization resumes it from the database", async () => {
    clock.set(Date.now());
    const code = await newWebinar();
    await live(code, "START");
    await live(code, "END");
    await fixture.api.server.finalizer.runOnce();
    expect((await overview(code, "LIVE")).dataState).toBe("FINALIZING");
    await fixture.api.close();
    // A new process (same database) before the grace is over: still FINALIZING; after it: FINAL.
    clock.advance(30);
    fixture.api = await startTestServer(
      fixture.database,
      { ...WIDE_SKEW, WEBINAR_FINALIZE_GRACE_SECONDS: "60" },
      { runtime: clock },
    );
    fixture.merchant = { ...fixture.merchant, client: fixture.api.client(fixture.merchant) };
    await fixture.api.server.finalizer.runOnce();
    expect((await overview(code, "LIVE")).dataState).toBe("FINALIZING");
    clock.advance(31);
    expect(
      (await fixture.merchant.client.waitForLiveFinal(code, { intervalMs: 50, timeoutMs: 10_000 })).dataState,
    ).toBe("FINAL");
  });

  it("2,000 bulk-seeded viewers: every sort (ALL) and REPLAY pages with size 7 through every viewer exactly once, in order", async () => {
    const owner = await fixture.api.newMerchant();
    const { id: webinarId } = await fixture.database.handle.db
      .selectFrom("webinars")
      .select("id")
      .where("ticket_code", "=", owner.ticketCode)
      .executeTakeFirstOrThrow();
    const count = 2000;
    await bulkSeedWatchData(fixture.database.handle.db, {
      merchantId: owner.merchantId,
      webinarId,
      count,
      externalPrefix: "seed-",
    });
    const viewers = Array.from({ length: count }, (_, i) => ({ ...seededViewer(i, { externalPrefix: "seed-" }), i }));
    const t0 = Date.parse("2026-11-21T08:00:00Z");
    const scoped = {
      ALL: viewers.map((v) => ({
        uid: v.uid,
        total: v.liveSeconds + v.replaySeconds,
        first: v.firstWatchedAt,
        last: v.lastWatchedAt,
      })),
      LIVE: viewers.map((v) => ({
        uid: v.uid,
        total: v.liveSeconds,
        first: v.firstWatchedAt,
        last: v.firstWatchedAt + v.liveSeconds * 1000,
      })),
      REPLAY: viewers
        .filter((v) => v.i % 4 === 0)
        .map((v) => ({
          uid: v.uid,
          total: v.replaySeconds,
          first: t0 + 2 * 86_400_000 + ((v.i * 15485863) % 86400) * 1000,
          last: v.lastWatchedAt,
        })),
    };
    const expected = {
      WATCH_SECONDS_DESC: (rows: typeof scoped.ALL) => [...rows].sort((x, y) => y.total - x.total || x.uid - y.uid),
      LAST_WATCHED_DESC: (rows: typeof scoped.ALL) => [...rows].sort((x, y) => y.last - x.last || x.uid - y.uid),
      FIRST_WATCHED_ASC: (rows: typeof scoped.ALL) => [...rows].sort((x, y) => x.first - y.first || x.uid - y.uid),
    };
    const all = await owner.client.getWatchOverview({ ticketCode: owner.ticketCode, playbackMode: "ALL" });
    expect(all.registered.viewerCount).toBe(count);
    expect(all.registered.sessionCount).toBe(count + count / 4);
    expect(all.liveWatchSeconds + all.replayWatchSeconds).toBe(all.all.watchSeconds);

    const runs: [keyof typeof scoped, keyof typeof expected][] = [
      ["ALL", "WATCH_SECONDS_DESC"],
      ["ALL", "LAST_WATCHED_DESC"],
      ["ALL", "FIRST_WATCHED_ASC"],
      ["REPLAY", "WATCH_SECONDS_DESC"],
    ];
    // The runs are independent queries: in parallel, so the suite stays fast.
    await Promise.all(
      runs.map(async ([mode, sort]) => {
        const uids: number[] = [];
        let pages = 0;
        for await (const page of owner.client
          .iterateViewerWatch({ ticketCode: owner.ticketCode, playbackMode: mode, sort, pageSize: 7 })
          .pages()) {
          pages += 1;
          expect(page.items.length).toBeLessThanOrEqual(7);
          if (page.nextCursor !== undefined) expect(page.nextCursor.length).toBeLessThanOrEqual(1024);
          uids.push(...page.items.map((item) => item.uid));
        }
        const want = expected[sort](scoped[mode]).map((row) => row.uid);
        expect(new Set(uids).size, `${mode} ${sort}`).toBe(want.length);
        expect(uids, `${mode} ${sort}`).toEqual(want);
        expect(pages).toBe(Math.ceil(want.length / 7));
      }),
    );

    // queryViewerWatchByIds: 400 uids (two batches of at most 300) merged in sort order.
    const some = viewers.slice(100, 500);
    const records = await owner.client.queryViewerWatchByIds({
      ticketCode: owner.ticketCode,
      playbackMode: "LIVE",
      sort: "WATCH_SECONDS_DESC",
      uids: some.map((v) => v.uid),
    });
    expect(records.map((r) => r.uid)).toEqual(
      [...some].sort((x, y) => y.liveSeconds - x.liveSeconds || x.uid - y.uid).map((v) => v.uid),
    );
    expect(records.every((r) => r.replayWatchSeconds === 0 && r.externalUserId === `seed-${r.uid - 1_000_000}`)).toBe(
      true,
    );

    // A cursor of the LIVE query used for the REPLAY query: 400 WATCH_REQUEST_INVALID.
    const first = await owner.client.queryViewerWatch({
      ticketCode: owner.ticketCode,
      playbackMode: "LIVE",
      sort: "WATCH_SECONDS_DESC",
      pageSize: 7,
    });
    const wrong = await apiError(
      owner.client.queryViewerWatch({
        ticketCode: owner.ticketCode,
        playbackMode: "REPLAY",
        sort: "WATCH_SECONDS_DESC",
        pageSize: 7,
        cursor: first.nextCursor!,
      }),
    );
    expect(wrong).toMatchObject({ status: 400, code: "WATCH_REQUEST_INVALID" });
  }, 120_000); // About 1,200 signed requests: a volume test gets more than the 30 s default, for slow machines.
});

/** Milliseconds a heartbeat credits before overlap with the subject's other sessions. */
function creditedMillis(
  previous: number,
  now: number,
  playing: boolean,
  window: { from: number; until: number },
  intervalSeconds: number,
): number {
  const segment = creditedSegment(previous, now, playing, window, intervalSeconds);
  return segment === undefined ? 0 : segment.until - segment.from;
}

describe("creditedSegment (the crediting rule)", () => {
  const open = { from: -Infinity, until: Infinity };
  it.each([
    ["playing, within the cap", 0, 10_000, true, open, 10_000],
    ["not playing", 0, 10_000, false, open, 0],
    ["capped at twice the interval", 0, 3_600_000, true, open, 30_000],
    ["clipped at the live's end", 0, 20_000, true, { from: -Infinity, until: 5_000 }, 5_000],
    ["after the live's end", 10_000, 20_000, true, { from: -Infinity, until: 5_000 }, 0],
    ["replay from the end on", 0, 20_000, true, { from: 15_000, until: Infinity }, 5_000],
    ["a clock going backwards", 20_000, 10_000, true, open, 0],
  ])("%s", (_label, previous, now, playing, window, expected) => {
    expect(creditedMillis(previous, now, playing, window, 15)).toBe(expected);
  });

  it("a capped interval credits its last stretch: the time just before the heartbeat", () => {
    expect(creditedSegment(0, 3_600_000, true, { from: -Infinity, until: Infinity }, 15)).toEqual({
      from: 3_570_000,
      until: 3_600_000,
    });
    expect(creditedSegment(0, 3_600_000, true, { from: -Infinity, until: 100_000 }, 15)).toEqual({
      from: 70_000,
      until: 100_000,
    });
    expect(creditedSegment(0, 10_000, false, { from: -Infinity, until: Infinity }, 15)).toBeUndefined();
  });
});

describe.runIf(DATABASE_KINDS.includes("postgres"))("two server processes on one PostgreSQL", () => {
  let database: TestDatabase;
  let one: TestServer;
  let two: TestServer;

  beforeAll(async () => {
    database = await openTestDatabase("postgres", "two_finalizers");
    one = await startTestServer(database, { WEBINAR_FINALIZE_GRACE_SECONDS: "0", WEBINAR_FINALIZE_POLL_MS: "20" });
    // The second instance has a pool of its own, as a second process would.
    const own = await connectDatabase(
      { kind: "postgres", databaseUrl: database.env.DATABASE_URL! },
      { connectTimeoutMs: 2000, statementTimeoutMs: 500, poolMax: 5 },
    );
    two = await startTestServer(
      database,
      { WEBINAR_FINALIZE_GRACE_SECONDS: "0", WEBINAR_FINALIZE_POLL_MS: "20" },
      { database: own },
    );
    (two as { ownDb?: typeof own }).ownDb = own;
  });
  afterAll(async () => {
    await one?.close();
    await two?.close();
    await (two as { ownDb?: { close(): Promise<void> } } | undefined)?.ownDb?.close();
    await database?.close();
  });

  it("a watch-data store failure answers 503 WATCH_DATA_UNAVAILABLE, never zero data", async () => {
    const merchant = await one.newMerchant();
    const client = two.client(merchant); // its pool has a 500 ms statement timeout
    const locker = new pg.Client({ connectionString: database.env.DATABASE_URL! });
    await locker.connect();
    try {
      await locker.query("begin");
      await locker.query("lock table watch_totals, watch_subject_totals in access exclusive mode");
      expect(
        await apiError(client.getWatchOverview({ ticketCode: merchant.ticketCode, playbackMode: "ALL" })),
      ).toMatchObject({ status: 503, code: "WATCH_DATA_UNAVAILABLE" });
      expect(
        await apiError(
          client.queryViewerWatch({
            ticketCode: merchant.ticketCode,
            playbackMode: "REPLAY",
            sort: "WATCH_SECONDS_DESC",
            pageSize: 10,
          }),
        ),
      ).toMatchObject({
        status: 503,
        code: "WATCH_DATA_UNAVAILABLE",
      });
    } finally {
      await locker.query("rollback");
      await locker.end();
    }
    expect((await client.getWatchOverview({ ticketCode: merchant.ticketCode, playbackMode: "ALL" })).dataState).toBe(
      "PROVISIONAL",
    );
  });

  it("finalize every ended webinar exactly once", async () => {
    const merchant = await one.newMerchant();
    const codes: string[] = [];
    for (let i = 0; i < 12; i += 1) {
      const code = (await one.admin("POST", `/admin/v1/merchants/${merchant.merchantId}/webinars`, {})).body
        .ticketCode as string;
      await one.admin("POST", `/admin/v1/webinars/${code}/live`, { action: "START" });
      codes.push(code);
    }
    // End them all at once through both instances while both finalizers poll and are also driven directly.
    await Promise.all(
      codes.map((code, i) =>
        (i % 2 === 0 ? one : two).admin("POST", `/admin/v1/webinars/${code}/live`, {
          action: i % 3 === 0 ? "FAIL" : "END",
        }),
      ),
    );
    await Promise.all([
      one.server.finalizer.runOnce(),
      two.server.finalizer.runOnce(),
      ...codes.slice(0, 4).map((code) => two.admin("POST", `/admin/v1/webinars/${code}/finalize`, {})),
    ]);
    for (const code of codes) {
      expect((await merchant.client.waitForLiveFinal(code, { intervalMs: 20, timeoutMs: 5000 })).dataState).toBe(
        "FINAL",
      );
    }
    const events = await database.handle.db
      .selectFrom("webinar_live_events as e")
      .innerJoin("webinars as w", "w.id", "e.webinar_id")
      .select(["w.ticket_code"])
      .where("e.action", "=", "FINALIZE")
      .where("w.merchant_id", "=", merchant.merchantId)
      .execute();
    expect(events.map((e) => e.ticket_code).sort()).toEqual([...codes].sort());
  });
});
