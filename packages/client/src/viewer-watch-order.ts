/**
 * The order of the detail query's sorts (`queryViewerWatch`), for results merged from several batches: the server
 * orders each batch, the client restores the order across them. Ties are broken by `uid`, so a merge is deterministic.
 */
import type { Sort, ViewerWatchRecord } from "@org/webinar-types";

type Compare = (a: ViewerWatchRecord, b: ViewerWatchRecord) => number;

const time = (value: string) => Date.parse(value);
const byUid: Compare = (a, b) => a.uid - b.uid;

const comparators: Record<Sort, Compare> = {
  WATCH_SECONDS_DESC: (a, b) => b.totalWatchSeconds - a.totalWatchSeconds || byUid(a, b),
  LAST_WATCHED_DESC: (a, b) => time(b.lastWatchedAt) - time(a.lastWatchedAt) || byUid(a, b),
  FIRST_WATCHED_ASC: (a, b) => time(a.firstWatchedAt) - time(b.firstWatchedAt) || byUid(a, b),
};

/**
 * Merges records of several answers into one list in the order of `sort`, keeping the first record of each `uid`.
 *
 * @example
 * mergeViewerWatch([...batchA.items, ...batchB.items], "WATCH_SECONDS_DESC");
 */
export function mergeViewerWatch(records: Iterable<ViewerWatchRecord>, sort: Sort): ViewerWatchRecord[] {
  const byId = new Map<number, ViewerWatchRecord>();
  for (const record of records) if (!byId.has(record.uid)) byId.set(record.uid, record);
  const compare = comparators[sort];
  if (compare === undefined) throw new RangeError(`unknown sort ${JSON.stringify(sort)}`);
  return [...byId.values()].sort(compare);
}
