/**
 * Cursor pagination of the detail query (`queryViewerWatch`): the first request has no cursor, each later one sends the
 * previous `nextCursor` unchanged, and an answer without `nextCursor` is the last page. The client never builds,
 * edits or reuses a cursor of its own.
 */
import type { QueryViewerWatchRequest, ViewerWatchPage, ViewerWatchRecord } from "@org/webinar-types";
import { WebinarResponseError } from "./errors";
import { withRequestId, type WithRequestId } from "./with-request-id";

/** A detail query without `cursor`; `pageSize` defaults to the spec's maximum (`limits.pageSizeMax`). */
export type ViewerWatchQuery = Omit<QueryViewerWatchRequest, "cursor" | "pageSize"> & { pageSize?: number };

/** Limits of a traversal. */
export interface PaginationLimits {
  /** Stop after this many pages. */
  maxPages?: number;
  /** Stop after this many items; the last page is cut to fit. */
  maxItems?: number;
}

/** Every matching record, page after page: iterate it for items, or call `pages()` for whole pages. */
export interface ViewerWatchIterable extends AsyncIterable<ViewerWatchRecord> {
  /** The pages themselves, each with its `requestId` and `nextCursor`. */
  pages(): AsyncIterable<WithRequestId<ViewerWatchPage>>;
}

function checkLimit(name: string, value: number | undefined): void {
  if (value !== undefined && (!Number.isInteger(value) || value < 0))
    throw new RangeError(`${name} must be a non-negative integer, got ${value}`);
}

/**
 * Builds the iterable over every page of `body`, fetched by `fetchPage`. Each iteration starts again at page one.
 */
export function paginateViewerWatch(
  body: QueryViewerWatchRequest,
  limits: PaginationLimits,
  fetchPage: (body: QueryViewerWatchRequest) => Promise<WithRequestId<ViewerWatchPage>>,
): ViewerWatchIterable {
  checkLimit("maxPages", limits.maxPages);
  checkLimit("maxItems", limits.maxItems);
  const maxPages = limits.maxPages ?? Number.POSITIVE_INFINITY;
  const maxItems = limits.maxItems ?? Number.POSITIVE_INFINITY;

  async function* pages(): AsyncGenerator<WithRequestId<ViewerWatchPage>> {
    let cursor: string | undefined;
    let pageCount = 0;
    let itemCount = 0;
    while (pageCount < maxPages && itemCount < maxItems) {
      const page = await fetchPage(cursor === undefined ? body : { ...body, cursor });
      pageCount += 1;
      const room = maxItems - itemCount;
      const fitted = page.items.length > room ? withItems(page, page.items.slice(0, room)) : page;
      itemCount += fitted.items.length;
      yield fitted;
      if (page.nextCursor === undefined) return;
      if (page.nextCursor === cursor) {
        // The same cursor again would loop forever; a server bug, reported instead of followed.
        throw new WebinarResponseError("the server returned the cursor it was sent as nextCursor", {
          status: 200,
          body: "",
          headers: new Headers(),
          requestId: page.requestId,
        });
      }
      cursor = page.nextCursor;
    }
  }

  return {
    pages,
    async *[Symbol.asyncIterator]() {
      for await (const page of pages()) yield* page.items;
    },
  };
}

function withItems(page: WithRequestId<ViewerWatchPage>, items: ViewerWatchRecord[]): WithRequestId<ViewerWatchPage> {
  const copy: ViewerWatchPage = page.nextCursor === undefined ? { items } : { items, nextCursor: page.nextCursor };
  return withRequestId(copy, page.requestId);
}
