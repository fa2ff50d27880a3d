/**
 * The group commit of heartbeat credits (watch-data/heartbeat-batcher.ts) on PGlite and PostgreSQL: a batch credits
 * exactly what the same heartbeats and stops credit one by one (the playback guide's rules: cap, pause, the live's
 * end, whole seconds, a stretch credited once across a subject's tabs, a closed session never again), many
 * heartbeats sent at once through the server are each credited as if alone, and a database failure in the middle
 * of a batch answers every caller of the batch 503 STORAGE_UNAVAILABLE and credits none of it. Also: the watch
 * session behind the cookie is read from memory, and not past its expiry.
 */
import { sql } from "kysely";
import pg from "pg";
import { describe, expect, it } from "vitest";
import type { ServiceError } from "../src/errors";
import { commitHeartbeatBatch, type HeartbeatCall, type PlaybackReport } from "../src/watch-data/heartbeat-batch";
import type { WatchSubject } from "../src/watch-data/watch-subject";
import { DATABASE_KINDS } from "./support/databases";
import { testClock } from "./support/test-clock";
import { playbackCall } from "./support/playback";
import { useServerPerFile } from "./support/server-per-file";

const WIDE_SKEW = { WEBINAR_CLOCK_SKEW_SECONDS: "86400" };

/** One call of a scripted round: the session (by index), and whose subject sends it. */
interface ScriptedCall {
  session: number;
  /** The subject sending it, by index into the webinar's subjects; default the session's own. */
  from?: number;
  playing?: boolean;
  close?: boolean;
}

describe.each(DATABASE_KINDS)("heartbeat group commit on %s", (kind) => {
  const clock = testClock();
  const fixture = useServerPerFile(kind, "heartbeats", WIDE_SKEW, { runtime: clock });

  const play = (action: string, body: Record<string, unknown>, cookie?: string) =>
    playbackCall(fixture.api.url, action, body, cookie);

  async function liveWebinar(): Promise<{ code: string; id: string }> {
    const created = await fixture.api.admin("POST", `/admin/v1/merchants/${fixture.merchant.merchantId}/webinars`, {});
    const code = created.body.ticketCode as string;
    expect((await fixture.api.admin("POST", `/admin/v1/webinars/${code}/live`, { action: "START" })).status).toBe(200);
    const { id } = await fixture.database.handle.db
      .selectFrom("webinars")
      .select("id")
      .where("ticket_code", "=", code)
      .executeTakeFirstOrThrow();
    return { code, id };
  }

  async function viewerUid(externalUserId: string): Promise<number> {
    return (await fixture.merchant.client.upsertViewer({ externalUserId })).viewer.uid;
  }

  /** A watch session of the viewer for the webinar: its cookie. */
  async function watchCookie(uid: number, code: string): Promise<string> {
    const { loginTicket } = await fixture.merchant.client.issueLoginTicket({ uid, ticketCode: code });
    const exchanged = await fixture.api.exchange(code, loginTicket);
    expect(exchanged.status).toBe(200);
    return exchanged.headers.get("set-cookie")!.split(";")[0]!;
  }

  async function startLive(cookie: string): Promise<string> {
    const started = await play("start", { mode: "LIVE", protocol: "HLS", deviceType: "DESKTOP" }, cookie);
    expect(started.status).toBe(200);
    return started.body.playbackId as string;
  }

  /** The rows heartbeats write, of one webinar, with session ids replaced by their index. */
  async function creditedRows(webinarId: string, playbackIds: string[]) {
    const { db } = fixture.database.handle;
    const sessions = await db
      .selectFrom("playback_sessions")
      .select(["id", "watch_seconds", "last_activity_at", "ended_at", sql<number>`credited_ms::float8`.as("ms")])
      .where("webinar_id", "=", webinarId)
      .execute();
    const subjects = await db
      .selectFrom("watch_subject_totals")
      .select(["scope", "subject_key", "total_seconds", "live_seconds", "last_watched_at", "credited_until"])
      .where("webinar_id", "=", webinarId)
      .orderBy("subject_key")
      .orderBy("scope")
      .execute();
    const totals = await db
      .selectFrom("watch_totals")
      .select(["scope", "kind", "watch_seconds", "viewer_count", "session_count", "updated_at"])
      .where("webinar_id", "=", webinarId)
      .orderBy("scope")
      .orderBy("kind")
      .execute();
    return {
      sessions: sessions
        .map(({ id, ...row }) => ({ index: playbackIds.indexOf(id), ...row }))
        .sort((a, b) => a.index - b.index),
      subjects: subjects.map((row) => ({
        ...row,
        total_seconds: Number(row.total_seconds),
        live_seconds: Number(row.live_seconds),
      })),
      totals: totals.map((row) => ({ ...row, watch_seconds: Number(row.watch_seconds) })),
    };
  }

  const shown = (answer: PlaybackReport | ServiceError) =>
    "code" in answer
      ? (answer as ServiceError).code
      : `${answer.creditedSeconds}/${answer.watchSeconds}${answer.ended ? "/ended" : ""}`;

  it("a batch credits exactly what the same heartbeats and stops credit one by one, row for row", async () => {
    const t0 = Date.now() - 600_000;
    const uids = await Promise.all([0, 1, 2, 3, 4].map((i) => viewerUid(`batch-${kind}-${i}`)));
    /** A webinar with the same subjects playing the same sessions: the viewers (viewer 0 in two tabs) and an anonymous one. */
    async function setUp(anonCookie?: string) {
      clock.set(t0);
      const webinar = await liveWebinar();
      const cookies = await Promise.all(uids.map((uid) => watchCookie(uid, webinar.code)));
      clock.set(t0 + 1000);
      const ids = [];
      for (const cookie of cookies) ids.push(await startLive(cookie));
      const anonymous = await play(
        "start",
        { mode: "LIVE", protocol: "HLS", deviceType: "MOBILE", ticketCode: webinar.code },
        anonCookie,
      );
      const anonymousCookie = anonCookie ?? anonymous.setCookie!.split(";")[0]!;
      ids.push(anonymous.body.playbackId as string);
      clock.set(t0 + 6000);
      ids.push(await startLive(cookies[0]!)); // viewer 0's second tab, 5 s later
      const subjects: WatchSubject[] = [
        ...uids.map((uid) => ({
          webinarId: webinar.id,
          merchantId: fixture.merchant.merchantId,
          uid,
          anonymousId: null,
        })),
        { webinarId: null, merchantId: null, uid: null, anonymousId: anonymousCookie.split("=")[1]! },
      ];
      // Sessions 0-4: the viewers', 5: the anonymous subject's, 6: viewer 0's second tab.
      const ownerOf = [0, 1, 2, 3, 4, 5, 0];
      return { webinar, ids, subjects, ownerOf, anonymousCookie };
    }
    const one = await setUp();
    const batched = await setUp(one.anonymousCookie);

    const rounds: { at: number; calls: ScriptedCall[] }[] = [
      {
        at: 16, // 15 s after the starts; the tabs overlap for 10 s
        calls: [
          { session: 0 },
          { session: 6 },
          { session: 1 },
          { session: 1 },
          { session: 2, playing: false },
          { session: 5 },
        ],
      },
      {
        at: 28.5, // the later tab first this time; a stop before and after a heartbeat; a foreign session
        calls: [
          { session: 6 },
          { session: 0 },
          { session: 1, close: true },
          { session: 1 },
          { session: 3 },
          { session: 3, close: true },
          { session: 2, from: 4 },
          { session: 4, playing: false },
          { session: 5 },
        ],
      },
      { at: 400, calls: [0, 2, 4, 5, 6, 1, 3].map((session) => ({ session })) }, // the cap; closed sessions
    ];
    const endAt = 410;
    const after: { at: number; calls: ScriptedCall[] } = {
      at: 430,
      calls: [{ session: 0 }, { session: 6, close: true }, { session: 2 }, { session: 4 }, { session: 5, close: true }],
    };

    const callsOf = (setup: typeof one, round: { at: number; calls: ScriptedCall[] }): HeartbeatCall[] =>
      round.calls.map((scripted) => ({
        playbackId: setup.ids[scripted.session]!,
        playing: scripted.playing ?? true,
        close: scripted.close ?? false,
        at: t0 + round.at * 1000,
        subject: setup.subjects[scripted.from ?? setup.ownerOf[scripted.session]!]!,
      }));
    const { db } = fixture.database.handle;
    const answers = { one: [] as string[][], batched: [] as string[][] };
    for (const [index, round] of [...rounds, after].entries()) {
      if (index === rounds.length) {
        clock.set(t0 + endAt * 1000);
        for (const setup of [one, batched])
          await fixture.api.admin("POST", `/admin/v1/webinars/${setup.webinar.code}/live`, { action: "END" });
      }
      const single: string[] = [];
      for (const call of callsOf(one, round)) single.push(shown((await commitHeartbeatBatch(db, [call]))[0]!));
      answers.one.push(single);
      answers.batched.push((await commitHeartbeatBatch(db, callsOf(batched, round))).map(shown));
    }

    expect(answers.batched).toEqual(answers.one);
    expect(answers.one[0]).toEqual(["15/15", "0/0", "15/15", "0/15", "0/0", "15/15"]);
    expect(answers.one[1]).toEqual([
      "12/12", // the later tab: 16 s to 28.5 s, 12.5 s, 12 whole, the half carried
      "0/15", // the earlier tab: its subject was credited up to 28.5 s already
      "12/27/ended",
      "0/27/ended",
      "27/27",
      "0/27/ended",
      "PLAYBACK_NOT_FOUND",
      "0/0",
      "12/27",
    ]);
    expect(answers.one[2]).toEqual(["30/45", "30/30", "30/30", "30/57", "0/12", "0/27/ended", "0/27/ended"]);
    // The live ended at 410 s: 10 s of LIVE time after the heartbeat at 400 s, credited once for viewer 0.
    expect(answers.one[3]).toEqual(["10/55", "0/12/ended", "10/40", "10/40", "10/67/ended"]);
    const rows = await creditedRows(one.webinar.id, one.ids);
    expect(await creditedRows(batched.webinar.id, batched.ids)).toEqual(rows);
    // Viewer 0's two tabs: each stretch once, 55 s in the first and 12 s in the second.
    const viewer0 = rows.subjects.find((row) => row.subject_key === `u:${uids[0]}` && row.scope === "LIVE")!;
    expect(viewer0.live_seconds).toBe(55 + 12);
    expect(rows.totals.find((row) => row.scope === "ALL" && row.kind === "REGISTERED")!.watch_seconds).toBe(
      67 + 27 + 40 + 27 + 40,
    );
  });

  it("many heartbeats and stops at once through the server: each answered after its batch committed, credited as if alone", async () => {
    clock.set(Date.now());
    const webinar = await liveWebinar();
    const viewers = await Promise.all(
      Array.from({ length: 30 }, async (_, i) => {
        const cookie = await watchCookie(await viewerUid(`many-${kind}-${i}`), webinar.code);
        return { cookie, playbackId: await startLive(cookie) };
      }),
    );
    for (const [advance, credited] of [
      [15, 15],
      [15, 15],
      [40, 30],
    ] as const) {
      clock.advance(advance);
      const answers = await Promise.all(
        viewers.map(({ cookie, playbackId }) => play("heartbeat", { playbackId, playing: true }, cookie)),
      );
      expect(answers.map((answer) => [answer.status, answer.body.creditedSeconds])).toEqual(
        viewers.map(() => [200, credited]),
      );
    }
    // Half the viewers stop while the other half send a heartbeat, all at once.
    clock.advance(3);
    const last = await Promise.all(
      viewers.map(({ cookie, playbackId }, i) =>
        play(i % 2 === 0 ? "stop" : "heartbeat", { playbackId, playing: true }, cookie),
      ),
    );
    expect(last.map((answer) => answer.body)).toEqual(
      viewers.map(({ playbackId }, i) => ({
        requestId: expect.any(String),
        playbackId,
        creditedSeconds: 3,
        watchSeconds: 63,
        ended: i % 2 === 0,
      })),
    );
    const overview = await fixture.merchant.client.getWatchOverview({ ticketCode: webinar.code, playbackMode: "LIVE" });
    expect(overview.registered).toEqual({ viewerCount: 30, sessionCount: 30, watchSeconds: 30 * 63 });
    const batchSizes = fixture.api.logs
      .records()
      .filter((record) => record.msg === "heartbeat batch committed")
      .map((record) => record.heartbeats as number);
    expect(Math.max(...batchSizes)).toBeGreaterThan(1);
  });

  it("a database failure in the middle of a batch: every caller of it gets 503 STORAGE_UNAVAILABLE, none is credited", async () => {
    clock.set(Date.now());
    const webinar = await liveWebinar();
    const viewers = await Promise.all(
      Array.from({ length: 20 }, async (_, i) => {
        const cookie = await watchCookie(await viewerUid(`fail-${kind}-${i}`), webinar.code);
        return { cookie, playbackId: await startLive(cookie) };
      }),
    );
    const before = await creditedRows(
      webinar.id,
      viewers.map((viewer) => viewer.playbackId),
    );
    const { db } = fixture.database.handle;
    // The batch's last statement, which writes the webinar's totals, is cancelled by the database.
    await sql`create function fail_watch_totals() returns trigger language plpgsql as $$
      begin raise exception 'storage fails in the middle of a batch' using errcode = 'query_canceled'; end $$`.execute(
      db,
    );
    await sql`create trigger fail_watch_totals before update on watch_totals for each row execute function fail_watch_totals()`.execute(
      db,
    );
    clock.advance(10);
    let answers: { status: number; body: any }[];
    try {
      answers = await Promise.all(
        viewers.map(({ cookie, playbackId }) => play("heartbeat", { playbackId, playing: true }, cookie)),
      );
    } finally {
      await sql`drop trigger fail_watch_totals on watch_totals`.execute(db);
      await sql`drop function fail_watch_totals()`.execute(db);
    }
    expect(answers.map((answer) => [answer.status, answer.body.error?.code])).toEqual(
      viewers.map(() => [503, "STORAGE_UNAVAILABLE"]),
    );
    // Every heartbeat was in a failed batch, and at least one batch had several callers.
    const failed = fixture.api.logs
      .records()
      .filter((record) => record.msg === "heartbeat batch failed: none of it credited")
      .map((record) => record.heartbeats as number);
    expect(failed.reduce((sum, size) => sum + size, 0)).toBe(viewers.length);
    expect(Math.max(...failed)).toBeGreaterThan(1);
    expect(
      await creditedRows(
        webinar.id,
        viewers.map((viewer) => viewer.playbackId),
      ),
    ).toEqual(before);

    // Recovery: the next heartbeats credit the time since the last committed one, 10 + 5 s.
    clock.advance(5);
    const again = await Promise.all(
      viewers.map(({ cookie, playbackId }) => play("heartbeat", { playbackId, playing: true }, cookie)),
    );
    expect(again.map((answer) => [answer.status, answer.body.creditedSeconds])).toEqual(viewers.map(() => [200, 15]));
  });

  it("the watch session is read from memory once known, and refused from the moment it expires", async () => {
    clock.set(Date.now());
    const webinar = await liveWebinar();
    const cookie = await watchCookie(await viewerUid(`memory-${kind}`), webinar.code);
    const playbackId = await startLive(cookie);
    // The row is gone from the database (as if pruned): the process still knows the session.
    const { db } = fixture.database.handle;
    const { webinar_id, uid } = await db
      .selectFrom("playback_sessions")
      .select(["webinar_id", "uid"])
      .where("id", "=", playbackId)
      .executeTakeFirstOrThrow();
    await db.deleteFrom("watch_sessions").where("webinar_id", "=", webinar_id).where("uid", "=", uid!).execute();
    clock.advance(10);
    expect((await play("heartbeat", { playbackId, playing: true }, cookie)).body.creditedSeconds).toBe(10);
    // WEBINAR_SESSION_TTL_SECONDS (12 hours by default) after the exchange, the cached session answers no more.
    clock.advance(12 * 3600);
    const expired = await play("heartbeat", { playbackId, playing: true }, cookie);
    expect([expired.status, expired.body.error.code]).toEqual([401, "PLAYBACK_UNAUTHORIZED"]);
  });

  it("drain() (the server's shutdown) commits the heartbeats still gathering before it resolves", async () => {
    clock.set(Date.now());
    const webinar = await liveWebinar();
    const viewers = await Promise.all(
      Array.from({ length: 8 }, async (_, i) => {
        const uid = await viewerUid(`drain-${kind}-${i}`);
        return { uid, playbackId: await startLive(await watchCookie(uid, webinar.code)) };
      }),
    );
    clock.advance(10);
    const { heartbeats } = fixture.api.server.services;
    const answered: PlaybackReport[] = [];
    for (const { uid, playbackId } of viewers) {
      const subject = { webinarId: webinar.id, merchantId: fixture.merchant.merchantId, uid, anonymousId: null };
      void heartbeats.credit({ playbackId, playing: true, close: false, subject }).then((report) => {
        answered.push(report);
      });
    }
    expect(answered).toEqual([]);
    await heartbeats.drain();
    expect(answered.map((report) => report.creditedSeconds)).toEqual(viewers.map(() => 10));
    const { rows } = await sql<{ seconds: number }>`
      select sum(watch_seconds)::int as seconds from playback_sessions where webinar_id = ${webinar.id}
    `.execute(fixture.database.handle.db);
    expect(rows[0]!.seconds).toBe(10 * viewers.length);
  });

  // PostgreSQL only: the embedded database has one connection, which no other client can lock rows against.
  if (kind === "postgres")
    it("the batch's connection terminated while it waits for a lock: every caller 503, none credited", async () => {
      clock.set(Date.now());
      const webinar = await liveWebinar();
      const viewers = await Promise.all(
        Array.from({ length: 12 }, async (_, i) => {
          const cookie = await watchCookie(await viewerUid(`kill-${kind}-${i}`), webinar.code);
          return { cookie, playbackId: await startLive(cookie) };
        }),
      );
      const ids = viewers.map((viewer) => viewer.playbackId);
      const before = await creditedRows(webinar.id, ids);
      const locker = new pg.Client({ connectionString: fixture.database.env.DATABASE_URL! });
      await locker.connect();
      try {
        // The batches lock their sessions and subjects, then wait for the webinar totals this client holds.
        await locker.query("begin");
        await locker.query("lock table watch_totals in exclusive mode");
        clock.advance(10);
        const pending = Promise.all(
          viewers.map(({ cookie, playbackId }) => play("heartbeat", { playbackId, playing: true }, cookie)),
        );
        let settled = false;
        void pending.finally(() => {
          settled = true;
        });
        let terminated = 0;
        while (!settled) {
          const waiting = await locker.query<{ pid: number }>(
            `select pid from pg_stat_activity
             where datname = current_database() and wait_event_type = 'Lock' and pid <> pg_backend_pid()`,
          );
          for (const { pid } of waiting.rows) {
            await locker.query("select pg_terminate_backend($1)", [pid]);
            terminated += 1;
          }
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        const answers = await pending;
        expect(answers.map((answer) => [answer.status, answer.body.error?.code])).toEqual(
          viewers.map(() => [503, "STORAGE_UNAVAILABLE"]),
        );
        expect(terminated).toBeGreaterThan(0);
      } finally {
        await locker.query("rollback");
        await locker.end();
      }
      expect(await creditedRows(webinar.id, ids)).toEqual(before);
      clock.advance(5);
      const again = await Promise.all(
        viewers.map(({ cookie, playbackId }) => play("heartbeat", { playbackId, playing: true }, cookie)),
      );
      expect(again.map((answer) => [answer.status, answer.body.creditedSeconds])).toEqual(viewers.map(() => [200, 15]));
    });
});
