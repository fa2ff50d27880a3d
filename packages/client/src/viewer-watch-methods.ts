/**
 * The client's methods over the detail query and the overview: waiting out WATCH_DATA_NOT_FINAL, iterating every
 * page, querying any number of ids in batches, and waiting for final live data. Each builds on the client's own
 * `queryViewerWatch` page call and `getWatchOverview`, so every request is signed and retried like any other.
 */
import {
  limits,
  type QueryViewerWatchRequest,
  type ViewerWatchPage,
  type ViewerWatchRecord,
  type WatchOverview,
} from "@org/webinar-types";
import type {
  IterateViewerWatchOptions,
  QueryViewerWatchOptions,
  ViewerWatchByIdsQuery,
  WaitForLiveFinalOptions,
  WebinarClient,
} from "./webinar-client";
import { isWebinarApiError, WebinarTimeoutError } from "./errors";
import { planIdBatches } from "./id-batches";
import type { CallOptions } from "./operation-call";
import { pollUntilDone, type WaitForFinalOptions } from "./polling";
import { retryAfterMs } from "./retry-after";
import type { CallRuntime } from "./send-call";
import { mergeViewerWatch } from "./viewer-watch-order";
import {
  paginateViewerWatch,
  type PaginationLimits,
  type ViewerWatchIterable,
  type ViewerWatchQuery,
} from "./viewer-watch-pages";
import type { WithRequestId } from "./with-request-id";

/** What the methods call: one page of the detail query and the overview, each one operation call. */
export interface ViewerWatchCalls {
  queryPage(body: QueryViewerWatchRequest, options: CallOptions): Promise<WithRequestId<ViewerWatchPage>>;
  getWatchOverview: WebinarClient["getWatchOverview"];
}

type ViewerWatchMethods = Pick<
  WebinarClient,
  "queryViewerWatch" | "iterateViewerWatch" | "queryViewerWatchByIds" | "waitForLiveFinal"
>;

/** The four methods of a client whose page and overview calls are `calls`. */
export function createViewerWatchMethods(calls: ViewerWatchCalls, runtime: CallRuntime): ViewerWatchMethods {
  const { queryPage } = calls;

  function queryViewerWatch(
    body: QueryViewerWatchRequest,
    options: QueryViewerWatchOptions = {},
  ): Promise<WithRequestId<ViewerWatchPage>> {
    const { waitForFinal, ...callOptions } = options;
    if (waitForFinal === undefined) return queryPage(body, callOptions);
    return pollUntilDone(
      async () => {
        try {
          return { done: true, value: await queryPage(body, callOptions) };
        } catch (error) {
          if (!isWebinarApiError(error, "queryViewerWatch") || error.code !== "WATCH_DATA_NOT_FINAL") throw error;
          return {
            done: false,
            pending: error,
            retryAfterMs: retryAfterMs(
              error.headers.get("retry-after"),
              Date.parse(error.headers.get("date") ?? "") || runtime.clock(),
            ),
          };
        }
      },
      { ...(waitForFinal === true ? {} : waitForFinal), signal: options.signal },
      runtime,
      (last) => last,
    );
  }

  const withPageSize = (query: ViewerWatchQuery): QueryViewerWatchRequest => ({
    ...query,
    pageSize: query.pageSize ?? limits.pageSizeMax,
  });

  function iterateViewerWatch(query: ViewerWatchQuery, options: IterateViewerWatchOptions = {}): ViewerWatchIterable {
    const { maxPages, maxItems, ...queryOptions } = options;
    const pageLimits: PaginationLimits = {};
    if (maxPages !== undefined) pageLimits.maxPages = maxPages;
    if (maxItems !== undefined) pageLimits.maxItems = maxItems;
    return paginateViewerWatch(withPageSize(query), pageLimits, (body) => queryViewerWatch(body, queryOptions));
  }

  async function queryViewerWatchByIds(
    query: ViewerWatchByIdsQuery,
    options: QueryViewerWatchOptions = {},
  ): Promise<ViewerWatchRecord[]> {
    const { uids, externalUserIds, ...rest } = query;
    const records: ViewerWatchRecord[] = [];
    for (const batch of planIdBatches({ uids, externalUserIds })) {
      for await (const record of iterateViewerWatch({ ...rest, ...batch }, options)) records.push(record);
    }
    return mergeViewerWatch(records, query.sort);
  }

  function waitForLiveFinal(
    ticketCode: string,
    options: WaitForLiveFinalOptions = {},
  ): Promise<WithRequestId<WatchOverview>> {
    const { intervalMs, timeoutMs, ...callOptions } = options;
    const pollOptions: WaitForFinalOptions & { signal?: AbortSignal } = {};
    if (intervalMs !== undefined) pollOptions.intervalMs = intervalMs;
    if (timeoutMs !== undefined) pollOptions.timeoutMs = timeoutMs;
    if (options.signal !== undefined) pollOptions.signal = options.signal;
    return pollUntilDone(
      async () => {
        const overview = await calls.getWatchOverview({ ticketCode, playbackMode: "LIVE" }, callOptions);
        return overview.dataState === "FINAL" ? { done: true, value: overview } : { done: false, pending: overview };
      },
      pollOptions,
      runtime,
      (last, ms) =>
        new WebinarTimeoutError(
          `live data of ${ticketCode} was still ${last.dataState} after ${ms} ms (requestId ${last.requestId})`,
          { phase: "poll", timeoutMs: ms },
        ),
    );
  }

  return { queryViewerWatch, iterateViewerWatch, queryViewerWatchByIds, waitForLiveFinal };
}
