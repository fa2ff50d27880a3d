/**
 * The watch-data page's address holds what it shows: the mode, the viewers table's query (sort, page size and
 * filters, as queryViewers takes them) and the cursors of the pages opened on the way to the one shown. So a reload,
 * a shared link and the browser's back and forward buttons show the same page. The schema validates the address's
 * search parameters (the router's `validateSearch`); an address it cannot read opens the first page of the default
 * query.
 */
import * as v from "valibot";
import type { Schemas } from "../../api/console-api";
import { consoleEnums, consoleLimits } from "@org/webinar-console-contract";

export const PAGE_SIZES = [10, 20, 50, 100].filter((size) => size <= consoleLimits.viewersPageSizeMax);

/** What the page shows without search parameters; these values are left out of the address. */
export const FIRST_VIEWER_SEARCH = { mode: "ALL", sort: "WATCH_SECONDS_DESC", pageSize: 20 } as const;

const ids = <T extends v.GenericSchema>(item: T) =>
  v.exactOptional(v.pipe(v.array(item), v.minLength(1), v.maxLength(consoleLimits.viewersIdsMax)));

export const viewerSearch = v.fallback(
  v.object({
    mode: v.optional(v.picklist(consoleEnums.modes), FIRST_VIEWER_SEARCH.mode),
    sort: v.optional(v.picklist(consoleEnums.sorts), FIRST_VIEWER_SEARCH.sort),
    pageSize: v.optional(v.picklist(PAGE_SIZES), FIRST_VIEWER_SEARCH.pageSize),
    uids: ids(v.pipe(v.number(), v.safeInteger(), v.minValue(1))),
    externalUserIds: ids(v.pipe(v.string(), v.nonEmpty())),
    minWatchSeconds: v.exactOptional(v.pipe(v.number(), v.safeInteger(), v.minValue(0))),
    /** cursors[i] opens page i + 2: the last one is the page shown, the others lead back to page 1. */
    cursors: v.exactOptional(v.pipe(v.array(v.string()), v.minLength(1))),
  }),
  FIRST_VIEWER_SEARCH,
);

export type ViewerSearch = v.InferOutput<typeof viewerSearch>;
/** The viewers table's query without its mode and page. */
export type ViewerQuery = Omit<ViewerSearch, "mode" | "cursors">;

/**
 * The first page of a query. Every change of mode, sort or filter goes through here: a cursor belongs to the query
 * that answered it, and queryViewers refuses it for any other.
 */
export function firstPage({ cursors: _pageOfAnotherQuery, ...query }: ViewerSearch): ViewerSearch {
  return query;
}

/** queryViewers' body for the page the address shows. */
export function viewerQueryBody({ cursors, ...query }: ViewerSearch): Schemas["QueryViewersRequest"] {
  const cursor = cursors?.at(-1);
  return cursor === undefined ? query : { ...query, cursor };
}
