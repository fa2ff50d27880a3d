/**
 * Pagination while paging: for each mode and sort, the webinar's records walked with pages of 1 and of 3 are the
 * records of pages of 100, in the same order: no record twice, none dropped at a page boundary (ties are broken
 * by the server on stable fields), every page within its pageSize, and the stated sort order throughout. A black
 * box cannot make watch data, so these checks need a webinar that has records; with fewer than two they are
 * skipped, and `LIVE` and `ALL` are skipped while live data is not final.
 */
import type { PlaybackMode, Sort, ViewerWatchRecord } from "@org/webinar-types";
import { ensure, skip, type Check } from "../check";
import { inOrder, NotFinalYet, walk } from "./watch-query";

const MODES: PlaybackMode[] = ["REPLAY", "LIVE", "ALL"];
const SORTS: Sort[] = ["WATCH_SECONDS_DESC", "LAST_WATCHED_DESC", "FIRST_WATCHED_ASC"];
/** Records compared with small pages; pages of 100 read up to FULL_LIMIT. */
const SMALL_LIMIT = 10;
const FULL_LIMIT = 300;

const ids = (items: readonly ViewerWatchRecord[]) => items.map((item) => item.subjectId);

function ensureNoRepeats(items: readonly ViewerWatchRecord[]): void {
  const seen = new Set<string>();
  for (const id of ids(items)) {
    ensure(!seen.has(id), `subjectId ${id} comes twice`);
    seen.add(id);
  }
}

/** Fails unless `items` stand in `sort`'s order (ties in any order). */
export function ensureSorted(sort: Sort, items: readonly ViewerWatchRecord[]): void {
  items.slice(1).forEach((item, index) => {
    const before = items[index]!;
    ensure(
      inOrder(sort, before, item),
      `records ${index + 1} and ${index + 2} are out of ${sort} order: ${JSON.stringify(before)} then ${JSON.stringify(item)}`,
    );
  });
}

const paginationCheck = (mode: PlaybackMode, sort: Sort): Check => ({
  id: `pagination.${mode.toLowerCase()}.${sort.toLowerCase().replaceAll("_", "-")}`,
  title: `${mode} by ${sort}: pages of 1 and of 3 give the records of pages of 100, in order, none twice, none dropped`,
  async run(context) {
    try {
      const full = await walk(context, mode, sort, 100, FULL_LIMIT);
      if (full.items.length < 2)
        return skip(`needs a webinar with at least 2 records in ${mode}; it has ${full.items.length}`);
      ensureNoRepeats(full.items);
      ensureSorted(sort, full.items);
      const expected = ids(full.items.slice(0, SMALL_LIMIT));
      for (const pageSize of [1, 3]) {
        const small = await walk(context, mode, sort, pageSize, SMALL_LIMIT);
        const got = ids(small.items.slice(0, expected.length));
        ensure(
          JSON.stringify(got) === JSON.stringify(expected),
          `pages of ${pageSize} gave ${JSON.stringify(got)}; pages of 100 gave ${JSON.stringify(expected)}`,
        );
      }
      return `${full.items.length}${full.complete ? "" : "+"} records; the first ${expected.length} compared`;
    } catch (error) {
      if (error instanceof NotFinalYet) return skip(`${mode} data is not final yet (409 WATCH_DATA_NOT_FINAL)`);
      throw error;
    }
  },
});

export const paginationChecks: Check[] = MODES.flatMap((mode) => SORTS.map((sort) => paginationCheck(mode, sort)));
