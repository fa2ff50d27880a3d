/**
 * Figures that add up: over the known sessions of known-sessions.ts, the overview of each mode is exactly their
 * sums (viewers, sessions, seconds, live and replay seconds, registered and anonymous), and the detail query of
 * each mode and sort returns, page by page over more than 250 records, exactly one record per registered viewer who
 * watched in that mode, each with exactly its seconds, session count, devices and protocols, in the sort's order;
 * the `uids`, `externalUserIds` and `minWatchSeconds` filters return exactly the records they select.
 */
import type { PlaybackMode, Sort, ViewerWatchRecord, WatchOverview, WatchStats } from "@org/webinar-types";
import { dataOf, ensure, expectSuccess, type Check } from "../check";
import type { RunContext } from "../run-context";
import {
  expectedOverview,
  expectedRecords,
  FIGURE_HOOKS,
  knownData,
  type ExpectedRecord,
  type KnownData,
} from "./known-sessions";
import { ensureSorted } from "./pagination";
import { withSetup } from "./setup-needs";
import { walk, type QueryFilter } from "./watch-query";

const MODES: PlaybackMode[] = ["LIVE", "REPLAY", "ALL"];
const SORTS: Sort[] = ["WATCH_SECONDS_DESC", "LAST_WATCHED_DESC", "FIRST_WATCHED_ASC"];
const BLOCKS = ["all", "registered", "anonymous"] as const;
const STATS: Array<keyof WatchStats> = ["viewerCount", "sessionCount", "watchSeconds"];

/** How `overview` differs from the figures of `data`'s sessions in `mode`: one line per wrong figure. */
export function overviewDifferences(
  data: Pick<KnownData, "sessions">,
  mode: PlaybackMode,
  overview: WatchOverview,
): string[] {
  const expected = expectedOverview(data, mode);
  const wrong: string[] = [];
  for (const block of BLOCKS)
    for (const stat of STATS) {
      const seen = overview[block][stat];
      const allowed = [expected[block][stat]];
      if (mode === "ALL" && stat === "viewerCount") allowed.push(expected.addedViewerCounts[block]);
      if (!allowed.includes(seen)) wrong.push(`${block}.${stat} ${seen}, expected ${allowed.join(" or ")}`);
    }
  for (const field of ["liveWatchSeconds", "replayWatchSeconds"] as const)
    if (overview[field] !== expected[field]) wrong.push(`${field} ${overview[field]}, expected ${expected[field]}`);
  return wrong;
}

const overviewCheck = (mode: PlaybackMode): Check => ({
  id: `figures.overview.${mode.toLowerCase()}`,
  title: `overview ${mode} of known sessions -> exactly their viewers, sessions and seconds, registered and anonymous`,
  run: withSetup(FIGURE_HOOKS, async (context, hooks) => {
    const data = await knownData(context, hooks);
    const answer = await context.call({
      operationId: "getWatchOverview",
      body: { ticketCode: data.ticketCode, playbackMode: mode },
      credentials: data.credentials,
    });
    expectSuccess(answer);
    const wrong = overviewDifferences(data, mode, dataOf<WatchOverview>(answer));
    ensure(wrong.length === 0, `the overview does not add up: ${wrong.join("; ")}`);
    return `${expectedOverview(data, mode).all.sessionCount} sessions, ${expectedOverview(data, mode).all.watchSeconds} s`;
  }),
});

const sorted = (values: readonly string[]) => [...values].sort();

function recordDifferences(record: ViewerWatchRecord, expected: ExpectedRecord | undefined): string[] {
  if (expected === undefined) return [`uid ${record.uid} has no session in this mode`];
  const wrong: string[] = [];
  for (const field of [
    "externalUserId",
    "totalWatchSeconds",
    "liveWatchSeconds",
    "replayWatchSeconds",
    "sessionCount",
  ] as const)
    if (record[field] !== expected[field])
      wrong.push(`${field} ${JSON.stringify(record[field])}, expected ${JSON.stringify(expected[field])}`);
  for (const field of ["deviceTypes", "protocols"] as const)
    if (JSON.stringify(sorted(record[field])) !== JSON.stringify(expected[field]))
      wrong.push(`${field} ${JSON.stringify(record[field])}, expected ${JSON.stringify(expected[field])}`);
  return wrong.length === 0 ? [] : [`uid ${record.uid}: ${wrong.join(", ")}`];
}

/** Fails unless `items` are exactly the `expected` records, each once, in `sort`'s order. */
export function ensureExactly(
  items: readonly ViewerWatchRecord[],
  expected: Map<number, ExpectedRecord>,
  sort: Sort,
): void {
  const wrong = items.flatMap((item) => recordDifferences(item, expected.get(item.uid)));
  ensure(
    wrong.length === 0,
    `${wrong.length} records differ from the recorded sessions: ${wrong.slice(0, 3).join(" | ")}`,
  );
  const seen = new Set(items.map((item) => item.uid));
  ensure(seen.size === items.length, `${items.length - seen.size} records come twice`);
  const missing = [...expected.keys()].filter((uid) => !seen.has(uid));
  ensure(
    missing.length === 0,
    `${missing.length} viewers who watched are missing, e.g. uid ${missing.slice(0, 3).join(", ")}`,
  );
  ensureSorted(sort, items);
}

async function walkKnown(
  context: RunContext,
  data: KnownData,
  mode: PlaybackMode,
  sort: Sort,
  pageSize: number,
  filter?: QueryFilter,
) {
  const target = {
    ticketCode: data.ticketCode,
    credentials: data.credentials,
    ...(filter === undefined ? {} : { filter }),
  };
  const { items } = await walk(context, mode, sort, pageSize, 10_000, target);
  return items;
}

const detailCheck = (mode: PlaybackMode, sort: Sort): Check => ({
  id: `figures.detail.${mode.toLowerCase()}.${sort.toLowerCase().replaceAll("_", "-")}`,
  title: `detail ${mode} by ${sort} of known sessions, every page -> exactly one record per viewer, exact figures, in order`,
  run: withSetup(FIGURE_HOOKS, async (context, hooks) => {
    const data = await knownData(context, hooks);
    const expected = expectedRecords(data, mode);
    // Pages of 100 cross two boundaries; pages of 37 cross seven, none of them at a round number.
    const items = await walkKnown(context, data, mode, sort, sort === "WATCH_SECONDS_DESC" ? 37 : 100);
    ensureExactly(items, expected, sort);
    return `${items.length} records`;
  }),
});

type FilterMaker = (
  data: KnownData,
  expected: Map<number, ExpectedRecord>,
) => {
  filter: QueryFilter;
  selected: (record: ExpectedRecord) => boolean;
};

const filterCheck = (id: string, title: string, make: FilterMaker): Check => ({
  id: `figures.filter.${id}`,
  title,
  run: withSetup(FIGURE_HOOKS, async (context, hooks) => {
    const data = await knownData(context, hooks);
    const all = expectedRecords(data, "REPLAY");
    const { filter, selected } = make(data, all);
    const expected = new Map([...all].filter(([, record]) => selected(record)));
    const items = await walkKnown(context, data, "REPLAY", "WATCH_SECONDS_DESC", 100, filter);
    ensureExactly(items, expected, "WATCH_SECONDS_DESC");
    return `${items.length} of ${all.size} records`;
  }),
});

const nth = (expected: Map<number, ExpectedRecord>, index: number) => [...expected.values()][index]!;

const filterChecks: Check[] = [
  filterCheck("uids", "uids of three viewers -> exactly their three records", (_data, expected) => {
    const uids = [0, 5, 9].map((index) => nth(expected, index).uid);
    return { filter: { uids }, selected: (record) => uids.includes(record.uid) };
  }),
  filterCheck("external-ids", "externalUserIds of two viewers -> exactly their two records", (_data, expected) => {
    const ids = [1, 7].map((index) => nth(expected, index).externalUserId!);
    return { filter: { externalUserIds: ids }, selected: (record) => ids.includes(record.externalUserId!) };
  }),
  filterCheck(
    "uids-or-external-ids",
    "uids and externalUserIds together -> the records of either",
    (_data, expected) => {
      const uid = nth(expected, 2).uid;
      const id = nth(expected, 3).externalUserId!;
      return {
        filter: { uids: [uid], externalUserIds: [id] },
        selected: (record) => record.uid === uid || record.externalUserId === id,
      };
    },
  ),
  filterCheck(
    "min-watch-seconds",
    "minWatchSeconds -> exactly the records with at least that many seconds",
    (_data, expected) => {
      const seconds = [...expected.values()].map((record) => record.totalWatchSeconds).sort((a, b) => a - b);
      const minWatchSeconds = seconds[Math.floor(seconds.length / 2)]!;
      return {
        filter: { minWatchSeconds },
        selected: (record) => record.totalWatchSeconds >= minWatchSeconds,
      };
    },
  ),
];

export const exactFigureChecks: Check[] = [
  ...MODES.map(overviewCheck),
  ...MODES.flatMap((mode) => SORTS.map((sort) => detailCheck(mode, sort))),
  ...filterChecks,
];
