/**
 * The client's public shape: `WebinarClient`, the interface `createWebinarClient` (client.ts) returns, and the
 * options of its methods. Types only, so the method modules and the CLI can name them without importing the
 * factory.
 */
import type {
  GetWatchOverviewRequest,
  IssueLoginTicketRequest,
  LoginTicket,
  paths,
  QueryViewerWatchRequest,
  UpsertViewerRequest,
  UpsertViewerResult,
  ViewerWatchPage,
  ViewerWatchRecord,
  WatchOverview,
} from "@org/webinar-types";
import type { Client } from "openapi-fetch";
import type { CallOptions } from "./operation-call";
import type { WaitForFinalOptions } from "./polling";
import type { RetryOptions } from "./retry-policy";
import type { PaginationLimits, ViewerWatchIterable, ViewerWatchQuery } from "./viewer-watch-pages";
import type { WithRequestId } from "./with-request-id";

export type { CallOptions } from "./operation-call";

/** Options of the detail query. */
export interface QueryViewerWatchOptions extends CallOptions {
  /**
   * Wait out 409 `WATCH_DATA_NOT_FINAL` (`queryViewerWatch`: LIVE and ALL are not final until live data is) by polling,
   * each poll a new signed request. Off by default: live data that is not final is a state the caller should know
   * about. `true` uses the defaults (every 5 s, for up to 10 minutes); when time runs out the last
   * `WATCH_DATA_NOT_FINAL` error is thrown.
   */
  waitForFinal?: WaitForFinalOptions | true;
}

/** Options of {@link WebinarClient.iterateViewerWatch}. */
export interface IterateViewerWatchOptions extends QueryViewerWatchOptions, PaginationLimits {}

/** The query of {@link WebinarClient.queryViewerWatchByIds}: any number of ids, no cursor. */
export type ViewerWatchByIdsQuery = ViewerWatchQuery & {
  uids?: readonly number[];
  externalUserIds?: readonly string[];
};

/** Options of {@link WebinarClient.waitForLiveFinal}: `timeoutMs` bounds the whole wait, not one request. */
export interface WaitForLiveFinalOptions extends WaitForFinalOptions {
  /** Aborts the wait. */
  signal?: AbortSignal;
  /** Retry settings of each overview request. */
  retry?: RetryOptions | false;
}

/** The Webinar Open API client; create it with {@link createWebinarClient}. */
export interface WebinarClient {
  /**
   * Creates or returns the viewer of your `externalUserId` and optionally binds a phone or sets a display name
   * (`upsertViewer`). Safe to repeat: it returns the existing viewer, with `created: false`.
   *
   * @throws {WebinarApiError<"upsertViewer">} e.g. `VIEWER_IDENTITY_CONFLICT` (the phone belongs to another viewer;
   *   nothing changed), `CONTENT_SENSITIVE`, `REQUEST_INVALID`. Conflicts are never retried.
   * @example
   * const { viewer, created } = await client.upsertViewer({ externalUserId: "crm-10086", phone: "13800138000" });
   */
  upsertViewer(body: UpsertViewerRequest, options?: CallOptions): Promise<WithRequestId<UpsertViewerResult>>;

  /**
   * Issues a one-time login ticket for a viewer and a published webinar (`issueLoginTicket`). Hand `loginUrl` to the
   * user as returned; never log it or the ticket (they are temporary credentials).
   *
   * Issuing invalidates the viewer's previous unused ticket, even one for another webinar. Like every call, this
   * one is retried after a timeout or a 5xx; but a timed-out attempt may still have issued a ticket, and the
   * retry then issues another that invalidates it. That is harmless as long as only the `loginUrl` of the answer
   * you finally receive is used, never one from an earlier attempt or an earlier call. To hand out exactly one
   * ticket per call, pass `{ retry: false }` and handle failures yourself.
   *
   * @throws {WebinarApiError<"issueLoginTicket">} e.g. `VIEWER_NOT_FOUND`, `WEBINAR_NOT_FOUND` (also for an
   *   unpublished webinar).
   * @example
   * const { loginUrl, expiresAt } = await client.issueLoginTicket({ uid: viewer.uid, ticketCode: "WBN8K2QX" });
   */
  issueLoginTicket(body: IssueLoginTicketRequest, options?: CallOptions): Promise<WithRequestId<LoginTicket>>;

  /**
   * Reads the watch-data overview of a webinar (`getWatchOverview`). `dataState` tells how settled it is; see
   * {@link WebinarClient.waitForLiveFinal} to wait for final live data.
   *
   * @example
   * const overview = await client.getWatchOverview({ ticketCode: "WBN8K2QX", playbackMode: "ALL" });
   */
  getWatchOverview(body: GetWatchOverviewRequest, options?: CallOptions): Promise<WithRequestId<WatchOverview>>;

  /**
   * Reads one page of per-viewer watch records (`queryViewerWatch`). For every page use
   * {@link WebinarClient.iterateViewerWatch}; for more than 300 ids, {@link WebinarClient.queryViewerWatchByIds}.
   *
   * @throws {WebinarApiError<"queryViewerWatch">} e.g. `WATCH_DATA_NOT_FINAL` (poll later, or pass `waitForFinal`),
   *   `WATCH_REQUEST_INVALID`.
   * @example
   * const query = { ticketCode: "WBN8K2QX", playbackMode: "REPLAY", sort: "WATCH_SECONDS_DESC" } as const;
   * const page = await client.queryViewerWatch({ ...query, pageSize: 50 });
   */
  queryViewerWatch(
    body: QueryViewerWatchRequest,
    options?: QueryViewerWatchOptions,
  ): Promise<WithRequestId<ViewerWatchPage>>;

  /**
   * Every record of a detail query, page by page, following only the server's `nextCursor`. `pageSize`
   * defaults to the maximum, 100. Iterate for items or call `.pages()` for pages.
   *
   * @example
   * const query = { ticketCode: "WBN8K2QX", playbackMode: "REPLAY", sort: "WATCH_SECONDS_DESC" } as const;
   * for await (const record of client.iterateViewerWatch(query)) {
   *   console.log(record.uid, record.totalWatchSeconds);
   * }
   */
  iterateViewerWatch(query: ViewerWatchQuery, options?: IterateViewerWatchOptions): ViewerWatchIterable;

  /**
   * Records of any number of viewers: the ids are deduplicated, sent in batches of at most
   * `limits.maxCombinedIds` (300) combined, every page of every batch is read, and the records are merged without
   * duplicates (by `uid`) in the order of `sort` (ties by `uid`). No ids at all returns `[]` without a request,
   * since an empty filter would match every viewer.
   *
   * @example
   * const query = { ticketCode: "WBN8K2QX", playbackMode: "REPLAY", sort: "WATCH_SECONDS_DESC" } as const;
   * const records = await client.queryViewerWatchByIds({ ...query, uids });
   */
  queryViewerWatchByIds(query: ViewerWatchByIdsQuery, options?: QueryViewerWatchOptions): Promise<ViewerWatchRecord[]>;

  /**
   * Polls the `LIVE` overview until its `dataState` is `FINAL` (the way to settle live data) and returns that overview.
   *
   * @throws {WebinarTimeoutError} with `phase: "poll"` when `timeoutMs` (default 10 minutes) runs out.
   * @example
   * await client.waitForLiveFinal("WBN8K2QX", { intervalMs: 10_000, timeoutMs: 30 * 60_000 });
   */
  waitForLiveFinal(ticketCode: string, options?: WaitForLiveFinalOptions): Promise<WithRequestId<WatchOverview>>;

  /**
   * The openapi-fetch client every method calls, typed by the spec's `paths`, with the signing middleware (which
   * also learns the server's clock). It returns `{ data, error, response }` (the whole envelopes) instead of
   * throwing on API errors. A call of its own is one signed attempt: retries, timeouts and logging belong to the
   * methods. Middlewares added with `client.raw.use()` run before signing, which always stays last.
   *
   * @example
   * const body = { ticketCode: "WBN8K2QX", playbackMode: "LIVE" } as const;
   * const { data, error } = await client.raw.POST("/api/v1/open/watch-data/overview", { body });
   */
  readonly raw: Client<paths>;
}
