/**
 * The watch-data operations (Data states, getWatchOverview, queryViewerWatch) end to end on PGlite and on PostgreSQL:
 * playback sessions are imported through the admin API, then read through @org/webinar-client. Statistics blocks, mode
 * filters, dataState through the live lifecycle, the detail query's records, filters, sort orders, keyset pages and
 * cursors, the live-finalization gate, request validation and ownership.
 */
import { describe, expect, it } from "vitest";
import type { ViewerWatchRecord } from "@org/webinar-types";
import { DATABASE_KINDS } from "./support/databases";
import { useServerPerFile } from "./support/server-per-file";
import { apiError } from "./support/harness";

const BASE64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/** Replaces one character of a cursor by the alphabet's character at `index ^ flip`, always a different one. */
function editAt(cursor: string, at: number, flip: number): string {
  const replaced = BASE64URL[BASE64URL.indexOf(cursor[at]!) ^ flip]!;
  return cursor.slice(0, at) + replaced + cursor.slice(at + 1);
}

/**
 * A cursor edited in its payload, in its MAC, and in its last character's unused bits (a decoder that ignores them
 * reads the same MAC; the server must refuse it all the same).
 */
function editedCursors(cursor: string): string[] {
  const payloadStart = cursor.indexOf(".") + 1;
  const macStart = cursor.lastIndexOf(".") + 1;
  return [editAt(cursor, payloadStart, 1), editAt(cursor, macStart, 32), editAt(cursor, cursor.length - 1, 1)];
}

describe.each(DATABASE_KINDS)("watch data (getWatchOverview, queryViewerWatch) on %s", (kind) => {
  const fixture = useServerPerFile(kind, "watch");
  let counter = 0;

  const newWebinar = async () =>
    (await fixture.api.admin("POST", `/admin/v1/merchants/${fixture.merchant.merchantId}/webinars`, {})).body
      .ticketCode as string;
  const viewer = async (patch: { phone?: string; displayName?: string } = {}) =>
    (await fixture.merchant.client.upsertViewer({ externalUserId: `watcher-${kind}-${++counter}`, ...patch })).viewer;
  const session = async (code: string, body: Record<string, unknown>) => {
    const answer = await fixture.api.admin("POST", `/admin/v1/webinars/${code}/playback-sessions`, body);
    expect(answer.status).toBe(201);
  };
  const live = (code: string, action: string) =>
    fixture.api.admin("POST", `/admin/v1/webinars/${code}/live`, { action });
  const overview = (ticketCode: string, playbackMode: "ALL" | "LIVE" | "REPLAY") =>
    fixture.merchant.client.getWatchOverview({ ticketCode, playbackMode });
  const detail = (ticketCode: string, patch: Record<string, unknown> = {}) =>
    fixture.merchant.client.queryViewerWatch({
      ticketCode,
      playbackMode: "REPLAY",
      sort: "WATCH_SECONDS_DESC",
      pageSize: 100,
      ...patch,
    } as never);

  /** A: live 1800 (DESKTOP/WEBRTC) + live 600 (MOBILE/HLS) + replay 125; B: live 1800 (TV/HLS); anonymous X live 300, Y replay 60. */
  async function scenario() {
    const code = await newWebinar();
    const a = await viewer({ phone: `1370000${String(++counter).padStart(4, "0")}`, displayName: "Alice" });
    const b = await viewer();
    await session(code, {
      subject: { uid: a.uid },
      mode: "LIVE",
      watchSeconds: 1800,
      deviceType: "DESKTOP",
      protocol: "WEBRTC",
      startedAt: "2026-11-21T08:00:00Z",
    });
    await session(code, {
      subject: { uid: a.uid },
      mode: "LIVE",
      watchSeconds: 600,
      deviceType: "MOBILE",
      protocol: "HLS",
      startedAt: "2026-11-21T09:00:00Z",
    });
    await session(code, {
      subject: { uid: a.uid },
      mode: "REPLAY",
      watchSeconds: 125,
      deviceType: "MOBILE",
      protocol: "HLS",
      startedAt: "2026-11-21T12:00:00Z",
    });
    await session(code, {
      subject: { uid: b.uid },
      mode: "LIVE",
      watchSeconds: 1800,
      deviceType: "TV",
      protocol: "HLS",
      startedAt: "2026-11-21T08:30:00Z",
    });
    await session(code, { subject: { anonymousId: "anon-x" }, mode: "LIVE", watchSeconds: 300 });
    await session(code, { subject: { anonymousId: "anon-y" }, mode: "REPLAY", watchSeconds: 60 });
    return { code, a, b };
  }

  describe("overview (getWatchOverview)", () => {
    it("a webinar without sessions: real zeros, PROVISIONAL, no update times", async () => {
      const code = await newWebinar();
      const zero = { viewerCount: 0, sessionCount: 0, watchSeconds: 0 };
      expect(await overview(code, "ALL")).toEqual({
        ticketCode: code,
        dataState: "PROVISIONAL",
        all: zero,
        registered: zero,
        anonymous: zero,
        liveWatchSeconds: 0,
        replayWatchSeconds: 0,
      });
    });

    it("statistics blocks per mode; live and replay seconds filtered by playbackMode", async () => {
      const { code } = await scenario();
      const liveView = await overview(code, "LIVE");
      expect(liveView).toMatchObject({
        registered: { viewerCount: 2, sessionCount: 3, watchSeconds: 4200 },
        anonymous: { viewerCount: 1, sessionCount: 1, watchSeconds: 300 },
        all: { viewerCount: 3, sessionCount: 4, watchSeconds: 4500 },
        liveWatchSeconds: 4500,
        replayWatchSeconds: 0,
        dataState: "PROVISIONAL",
      });
      expect(liveView.liveDataUpdatedAt).toMatch(/Z$/);
      expect(liveView.replayDataUpdatedAt).toBeUndefined();
      const replayView = await overview(code, "REPLAY");
      expect(replayView).toMatchObject({
        registered: { viewerCount: 1, sessionCount: 1, watchSeconds: 125 },
        anonymous: { viewerCount: 1, sessionCount: 1, watchSeconds: 60 },
        all: { viewerCount: 2, sessionCount: 2, watchSeconds: 185 },
        liveWatchSeconds: 0,
        replayWatchSeconds: 185,
        dataState: "PROVISIONAL",
      });
      expect(replayView.liveDataUpdatedAt).toBeUndefined();
      expect(await overview(code, "ALL")).toMatchObject({
        registered: { viewerCount: 2, sessionCount: 4, watchSeconds: 4325 },
        anonymous: { viewerCount: 2, sessionCount: 2, watchSeconds: 360 },
        all: { viewerCount: 4, sessionCount: 6, watchSeconds: 4685 },
        liveWatchSeconds: 4500,
        replayWatchSeconds: 185,
      });
    });

    it("Data states: dataState through the live lifecycle: PROVISIONAL, FINALIZING after END, FINAL after finalize; ALL stays PROVISIONAL with replay data", async () => {
      const withReplay = await scenario();
      const liveOnly = await newWebinar();
      await session(liveOnly, { subject: { anonymousId: "anon-z" }, mode: "LIVE", watchSeconds: 10 });
      for (const code of [withReplay.code, liveOnly]) {
        await live(code, "START");
        expect((await overview(code, "LIVE")).dataState).toBe("PROVISIONAL");
        await live(code, "END");
        expect((await overview(code, "LIVE")).dataState).toBe("FINALIZING");
      }
      expect((await overview(liveOnly, "ALL")).dataState).toBe("FINALIZING");
      for (const code of [withReplay.code, liveOnly])
        await fixture.api.admin("POST", `/admin/v1/webinars/${code}/finalize`, {});
      expect((await overview(withReplay.code, "LIVE")).dataState).toBe("FINAL");
      expect((await overview(withReplay.code, "ALL")).dataState).toBe("PROVISIONAL");
      expect((await overview(withReplay.code, "REPLAY")).dataState).toBe("PROVISIONAL");
      expect((await overview(liveOnly, "ALL")).dataState).toBe("FINAL");
    });

    it("20 concurrent imports for one viewer count one viewer and 20 sessions", async () => {
      const code = await newWebinar();
      const v = await viewer();
      await Promise.all(
        Array.from({ length: 20 }, () => session(code, { subject: { uid: v.uid }, mode: "LIVE", watchSeconds: 5 })),
      );
      expect((await overview(code, "LIVE")).registered).toEqual({
        viewerCount: 1,
        sessionCount: 20,
        watchSeconds: 100,
      });
    });
  });

  describe("viewer detail (queryViewerWatch)", () => {
    it("ViewerWatchRecord: records: registered only, identity fields, per-mode seconds, times, devices and protocols", async () => {
      const { code, a, b } = await scenario();
      const { items, nextCursor } = await detail(code, { playbackMode: "ALL" });
      expect(nextCursor).toBeUndefined();
      expect(items.map((item) => item.uid)).toEqual([a.uid, b.uid]);
      const [first, second] = items as [ViewerWatchRecord, ViewerWatchRecord];
      expect(first).toEqual({
        subjectId: expect.stringMatching(/^sub_/),
        identityType: "REGISTERED",
        displayNickname: `Viewer ${a.phone!.slice(-4)}`,
        uid: a.uid,
        externalUserId: a.externalUserId,
        phone: a.phone,
        displayName: "Alice",
        totalWatchSeconds: 2525,
        liveWatchSeconds: 2400,
        replayWatchSeconds: 125,
        sessionCount: 3,
        firstWatchedAt: "2026-11-21T08:00:00Z",
        lastWatchedAt: "2026-11-21T12:02:05Z",
        deviceTypes: ["DESKTOP", "MOBILE"],
        protocols: ["HLS", "WEBRTC"],
      });
      expect(second).not.toHaveProperty("phone");
      expect(second).not.toHaveProperty("displayName");
      expect(second.displayNickname).toMatch(/^Viewer [0-9A-Z]{4}$/);
      const replayOnly = await detail(code);
      expect(
        replayOnly.items.map((item) => [
          item.uid,
          item.totalWatchSeconds,
          item.liveWatchSeconds,
          item.replayWatchSeconds,
        ]),
      ).toEqual([[a.uid, 125, 0, 125]]);
    });

    it("times are written to the whole second, the fraction dropped, and a session without a device counts as UNKNOWN", async () => {
      const code = await newWebinar();
      const v = await viewer();
      await session(code, {
        subject: { uid: v.uid },
        mode: "REPLAY",
        watchSeconds: 10,
        protocol: "HLS",
        startedAt: "2026-11-21T08:00:00.750Z",
      });
      const [record] = (await detail(code, { sort: "FIRST_WATCHED_ASC" })).items;
      expect(record).toMatchObject({
        firstWatchedAt: "2026-11-21T08:00:00Z",
        lastWatchedAt: "2026-11-21T08:00:10Z",
        deviceTypes: ["UNKNOWN"],
        protocols: ["HLS"],
      });
    });

    it("filters: uids OR externalUserIds, minWatchSeconds", async () => {
      const { code, a, b } = await scenario();
      expect((await detail(code, { playbackMode: "LIVE", uids: [b.uid] })).items.map((item) => item.uid)).toEqual([
        b.uid,
      ]);
      expect(
        (await detail(code, { playbackMode: "LIVE", uids: [b.uid], externalUserIds: [a.externalUserId] })).items,
      ).toHaveLength(2);
      expect(
        (await detail(code, { playbackMode: "LIVE", minWatchSeconds: 2000 })).items.map((item) => item.uid),
      ).toEqual([a.uid]);
      expect((await detail(code, { playbackMode: "LIVE", uids: [10_000] })).items).toEqual([]);
    });

    it.each(["WATCH_SECONDS_DESC", "LAST_WATCHED_DESC", "FIRST_WATCHED_ASC"])(
      "%s: pages of one follow nextCursor to the same order, ties by uid, nothing repeated",
      async (sort) => {
        const code = await newWebinar();
        const viewers = await Promise.all(Array.from({ length: 5 }, () => viewer()));
        for (const [i, v] of viewers.entries()) {
          // Equal seconds and times for pairs, so ties need the tie-breaker.
          await session(code, {
            subject: { uid: v.uid },
            mode: "REPLAY",
            watchSeconds: 100 * Math.floor(i / 2),
            startedAt: `2026-11-21T0${Math.floor(i / 2)}:00:00Z`,
          });
        }
        const whole = (await detail(code, { sort })).items.map((item) => item.uid);
        const paged: number[] = [];
        let cursor: string | undefined;
        do {
          const page = await detail(code, { sort, pageSize: 1, ...(cursor ? { cursor } : {}) });
          paged.push(...page.items.map((item) => item.uid));
          cursor = page.nextCursor;
        } while (cursor !== undefined);
        expect(paged).toEqual(whole);
        expect(new Set(whole).size).toBe(5);
      },
    );

    it("queryViewerWatch: a cursor of another query or an edited cursor: 400 WATCH_REQUEST_INVALID", async () => {
      const { code } = await scenario();
      const { nextCursor } = await detail(code, { playbackMode: "ALL", pageSize: 1 });
      expect(nextCursor).toBeDefined();
      expect(
        (await detail(code, { playbackMode: "ALL", pageSize: 5, cursor: nextCursor })).items.length,
      ).toBeGreaterThan(0);
      expect(
        await apiError(detail(code, { playbackMode: "ALL", sort: "LAST_WATCHED_DESC", cursor: nextCursor })),
      ).toMatchObject({ status: 400, code: "WATCH_REQUEST_INVALID" });
      expect(await apiError(detail(code, { playbackMode: "LIVE", cursor: nextCursor }))).toMatchObject({
        code: "WATCH_REQUEST_INVALID",
      });
      for (const edited of editedCursors(nextCursor!)) {
        expect(await apiError(detail(code, { playbackMode: "ALL", cursor: edited }))).toMatchObject({
          code: "WATCH_REQUEST_INVALID",
        });
      }
      expect(await apiError(detail(code, { playbackMode: "ALL", cursor: "c1.bm90.aGVsbG8" }))).toMatchObject({
        code: "WATCH_REQUEST_INVALID",
      });
    });

    it("queryViewerWatch: LIVE and ALL answer 409 WATCH_DATA_NOT_FINAL after the start until finalized; REPLAY is not gated", async () => {
      const { code } = await scenario();
      await live(code, "START");
      expect(await apiError(detail(code, { playbackMode: "LIVE" }))).toMatchObject({
        status: 409,
        code: "WATCH_DATA_NOT_FINAL",
      });
      expect(await apiError(detail(code, { playbackMode: "ALL" }))).toMatchObject({ code: "WATCH_DATA_NOT_FINAL" });
      expect((await detail(code)).items).toHaveLength(1);
      await live(code, "END");
      expect(await apiError(detail(code, { playbackMode: "LIVE" }))).toMatchObject({ code: "WATCH_DATA_NOT_FINAL" });
      await fixture.api.admin("POST", `/admin/v1/webinars/${code}/finalize`, {});
      expect((await detail(code, { playbackMode: "LIVE" })).items).toHaveLength(2);
    });
  });

  describe("ownership", () => {
    it("merchant isolation: unknown or foreign webinar: 404 WEBINAR_NOT_FOUND for both operations, whatever its status", async () => {
      const other = await fixture.api.newMerchant({ webinarStatus: "HIDDEN" });
      expect(await apiError(overview(other.ticketCode, "ALL"))).toMatchObject({
        status: 404,
        code: "WEBINAR_NOT_FOUND",
      });
      expect(await apiError(detail("missing"))).toMatchObject({ status: 404, code: "WEBINAR_NOT_FOUND" });
      const hidden = (
        await fixture.api.admin("POST", `/admin/v1/merchants/${fixture.merchant.merchantId}/webinars`, {
          status: "HIDDEN",
        })
      ).body.ticketCode as string;
      expect((await overview(hidden, "LIVE")).ticketCode).toBe(hidden);
    });
  });
});
