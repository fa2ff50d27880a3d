/**
 * getWatchOverview and queryViewerWatch on the given webinar: the overview of each mode (the `all` block the sum
 * of `registered` and `anonymous`, seconds filtered by mode, `REPLAY` always provisional), 404 for a webinar the
 * merchant does not have, the live-finalization gate of the detail query, cursors (a made-up one, and one of
 * another query: 400 `WATCH_REQUEST_INVALID`) and the filters.
 */
import { randomBytes } from "node:crypto";
import type { PlaybackMode, ViewerWatchPage, WatchOverview, WatchStats } from "@org/webinar-types";
import type { Answer } from "../answer";
import { dataOf, ensure, expectError, expectOneOf, expectSuccess, skip, type Check } from "../check";
import type { RunContext } from "../run-context";
import { createViewer } from "./viewers";
import { pageOf, query } from "./watch-query";

function overview(context: RunContext, playbackMode: PlaybackMode, ticketCode = context.options.ticketCode) {
  return context.call({ operationId: "getWatchOverview", body: { ticketCode, playbackMode } });
}

async function overviewOk(context: RunContext, playbackMode: PlaybackMode): Promise<WatchOverview> {
  const answer = await overview(context, playbackMode);
  expectSuccess(answer);
  return dataOf<WatchOverview>(answer);
}

const STAT_FIELDS: Array<keyof WatchStats> = ["viewerCount", "sessionCount", "watchSeconds"];

const overviewCheck = (mode: PlaybackMode): Check => ({
  id: `watch.overview.${mode.toLowerCase()}`,
  title: `overview ${mode} -> 200: the queried ticketCode, all = registered + anonymous${
    mode === "LIVE" ? ", no replay seconds" : mode === "REPLAY" ? ", no live seconds, PROVISIONAL" : ""
  }`,
  async run(context) {
    const data = await overviewOk(context, mode);
    ensure(data.ticketCode === context.options.ticketCode, `ticketCode is ${data.ticketCode}`);
    for (const field of STAT_FIELDS)
      ensure(
        data.all[field] === data.registered[field] + data.anonymous[field],
        `all.${field} ${data.all[field]} is not registered + anonymous (${data.registered[field]} + ${data.anonymous[field]})`,
      );
    if (mode === "LIVE")
      ensure(data.replayWatchSeconds === 0, `a LIVE overview reports ${data.replayWatchSeconds} replay seconds`);
    if (mode === "REPLAY") {
      ensure(data.liveWatchSeconds === 0, `a REPLAY overview reports ${data.liveWatchSeconds} live seconds`);
      ensure(data.dataState === "PROVISIONAL", `a REPLAY overview is ${data.dataState}, not PROVISIONAL`);
    }
    return `${data.dataState}, ${data.all.viewerCount} viewers, ${data.all.watchSeconds} s`;
  },
});

const unknownWebinar = () => `wc-none-${randomBytes(8).toString("hex")}`;

const notFoundChecks: Check[] = [
  {
    id: "watch.overview.webinar-not-found",
    title: "overview of a ticketCode of no webinar -> 404 WEBINAR_NOT_FOUND",
    async run(context) {
      expectError(await overview(context, "ALL", unknownWebinar()), 404, ["WEBINAR_NOT_FOUND"]);
      return undefined;
    },
  },
  {
    id: "watch.query.webinar-not-found",
    title: "detail query of a ticketCode of no webinar -> 404 WEBINAR_NOT_FOUND",
    async run(context) {
      const fields = { playbackMode: "REPLAY", sort: "WATCH_SECONDS_DESC", pageSize: 10 } as const;
      expectError(await query(context, fields, unknownWebinar()), 404, ["WEBINAR_NOT_FOUND"]);
      return undefined;
    },
  },
];

/**
 * The gate of `mode` against the LIVE overview read before and after: FINAL both times -> 200; FINALIZING both
 * times (ended, not final) -> 409; otherwise (not started, live, or the state moved) either answer.
 */
const gateCheck = (mode: "LIVE" | "ALL"): Check => ({
  id: `watch.query.${mode.toLowerCase()}-gate`,
  title: `detail query ${mode} -> 200 when live data is FINAL, 409 WATCH_DATA_NOT_FINAL while FINALIZING`,
  async run(context) {
    const before = (await overviewOk(context, "LIVE")).dataState;
    const answer = await query(context, { playbackMode: mode, sort: "WATCH_SECONDS_DESC", pageSize: 10 });
    const after = (await overviewOk(context, "LIVE")).dataState;
    const state = before === after ? before : `${before} then ${after}`;
    if (state === "FINAL") expectSuccess(answer, "a success: live data is FINAL");
    else if (state === "FINALIZING") expectError(answer, 409, ["WATCH_DATA_NOT_FINAL"]);
    else
      expectOneOf(answer, [
        [200, []],
        [409, ["WATCH_DATA_NOT_FINAL"]],
      ]);
    return `live data ${state}: ${answer.status}`;
  },
});

const REPLAY_FIRST_PAGE = { playbackMode: "REPLAY", sort: "WATCH_SECONDS_DESC", pageSize: 1 } as const;

const queryChecks: Check[] = [
  {
    id: "watch.query.replay",
    title: "detail query REPLAY -> 200 at any time (never gated): registered viewers' records",
    async run(context) {
      const page = await pageOf(context, { ...REPLAY_FIRST_PAGE, pageSize: 100 });
      return `${page.items.length} record(s) on the first page`;
    },
  },
  {
    id: "watch.query.made-up-cursor",
    title: "a cursor the server never issued -> 400 WATCH_REQUEST_INVALID",
    async run(context) {
      const cursor = `wc.${randomBytes(24).toString("base64url")}`;
      expectError(await query(context, { ...REPLAY_FIRST_PAGE, cursor }), 400, ["WATCH_REQUEST_INVALID"]);
      return undefined;
    },
  },
  {
    id: "watch.query.cursor-of-other-query",
    title: "a nextCursor sent with another sort -> 400 WATCH_REQUEST_INVALID",
    async run(context) {
      const first = await pageOf(context, REPLAY_FIRST_PAGE);
      if (first.nextCursor === undefined) {
        // No cursor: either the webinar has one record at most, or the server dropped the cursor of a next page.
        const two = await pageOf(context, { ...REPLAY_FIRST_PAGE, pageSize: 2 });
        ensure(two.items.length < 2, "a page of 1 has no nextCursor, though a page of 2 holds 2 records");
        return skip(`needs a webinar with at least 2 records in REPLAY; it has ${two.items.length}`);
      }
      const answer = await query(context, {
        ...REPLAY_FIRST_PAGE,
        sort: "LAST_WATCHED_DESC",
        cursor: first.nextCursor,
      });
      expectError(answer, 400, ["WATCH_REQUEST_INVALID"]);
      return undefined;
    },
  },
];

/** The first REPLAY page, or this run's own viewer when the webinar has no records to filter on. */
async function filterSubject(context: RunContext) {
  const page = await pageOf(context, { ...REPLAY_FIRST_PAGE, pageSize: 100 });
  const record = page.items.find((item) => item.externalUserId !== undefined) ?? page.items[0];
  if (record !== undefined) return { uid: record.uid, externalUserId: record.externalUserId, page };
  const viewer = await context.once("filter-viewer", () => createViewer(context, "filter"));
  return { uid: viewer.uid, externalUserId: viewer.externalUserId, page };
}

function filteredPage(context: RunContext, filter: object): Promise<Answer> {
  return query(context, { ...REPLAY_FIRST_PAGE, pageSize: 100, ...filter });
}

const filterChecks: Check[] = [
  {
    id: "watch.query.filter-uids",
    title: "uids filter -> only records of those uids",
    async run(context) {
      const { uid } = await filterSubject(context);
      const answer = await filteredPage(context, { uids: [uid] });
      expectSuccess(answer);
      const { items } = dataOf<ViewerWatchPage>(answer);
      ensure(
        items.every((item) => item.uid === uid),
        `uids [${uid}] returned uids ${items.map((item) => item.uid).join(", ")}`,
      );
      return `uid ${uid}: ${items.length} record(s)`;
    },
  },
  {
    id: "watch.query.filter-external-ids",
    title: "externalUserIds filter -> only records of those external ids",
    async run(context) {
      const { externalUserId } = await filterSubject(context);
      if (externalUserId === undefined) return skip("no record with an externalUserId to filter on");
      const answer = await filteredPage(context, { externalUserIds: [externalUserId] });
      expectSuccess(answer);
      const { items } = dataOf<ViewerWatchPage>(answer);
      ensure(
        items.every((item) => item.externalUserId === externalUserId),
        `externalUserIds [${externalUserId}] returned other viewers`,
      );
      return `${items.length} record(s)`;
    },
  },
  {
    id: "watch.query.filter-min-watch-seconds",
    title: "minWatchSeconds -> only records with at least that many totalWatchSeconds",
    async run(context) {
      const { page } = await filterSubject(context);
      const minWatchSeconds = Math.max(1, ...page.items.map((item) => item.totalWatchSeconds));
      const answer = await filteredPage(context, { minWatchSeconds });
      expectSuccess(answer);
      const { items } = dataOf<ViewerWatchPage>(answer);
      const below = items.filter((item) => item.totalWatchSeconds < minWatchSeconds);
      ensure(
        below.length === 0,
        `minWatchSeconds ${minWatchSeconds} returned records with ${below.map((item) => item.totalWatchSeconds).join(", ")} s`,
      );
      return `minWatchSeconds ${minWatchSeconds}: ${items.length} record(s)`;
    },
  },
];

export const watchDataChecks: Check[] = [
  overviewCheck("ALL"),
  overviewCheck("LIVE"),
  overviewCheck("REPLAY"),
  ...notFoundChecks,
  gateCheck("LIVE"),
  gateCheck("ALL"),
  ...queryChecks,
  ...filterChecks,
];
