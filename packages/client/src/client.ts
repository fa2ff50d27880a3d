/**
 * `createWebinarClient`: the four operations of the Webinar Open API as typed methods on one openapi-fetch client
 * (`client.raw`) and its signing middleware, plus retries, pagination, id batching and waiting for final data.
 * Every call of every method is a `client.raw.POST`: one path, signed by the middleware on every attempt.
 */
import {
  limits,
  operations,
  type GetWatchOverviewRequest,
  type IssueLoginTicketRequest,
  type LoginTicket,
  type OperationId,
  type OperationErrorCode,
  type paths,
  type QueryViewerWatchRequest,
  type RequestBody,
  type ResponseData,
  type UpsertViewerRequest,
  type UpsertViewerResult,
  type ViewerWatchPage,
  type ViewerWatchRecord,
  type WatchOverview,
} from "@org/webinar-types";
import createClient, { type Client } from "openapi-fetch";
import type { FetchLike } from "./attempt";
import { checkTimeoutMs, resolveClientOptions, type WebinarClientOptions } from "./client-options";
import { isWebinarApiError, WebinarApiError, WebinarResponseError, WebinarTimeoutError } from "./errors";
import { planIdBatches } from "./id-batches";
import { pollUntilDone, type WaitForFinalOptions } from "./polling";
import { retryAfterMs } from "./retry-after";
import { resolveRetryPolicy, type RetryOptions } from "./retry-policy";
import { sendCall, type CallRuntime, type FinalAnswer, type PostResult } from "./send-call";
import { createSigning } from "./signing-middleware";
import { mergeViewerWatch } from "./viewer-watch-order";
import {
  paginateViewerWatch,
  type PaginationLimits,
  type ViewerWatchIterable,
  type ViewerWatchQuery,
} from "./viewer-watch-pages";
import { withRequestId, type WithRequestId } from "./with-request-id";
import { noFollowRedirect } from "./no-follow-redirect";

/** Per-call settings; each overrides the client's for this call only. */
export interface CallOptions {
  /** Aborts the call, waits included; it then rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Limit of one attempt in milliseconds. */
  timeoutMs?: number;
  /** Retry settings for this call, or `false` for a single attempt. */
  retry?: RetryOptions | false;
}

/** Options of the detail query. */
export interface QueryViewerWatchOptions extends CallOptions {
  /**
   * Wait out 409 `WATCH_DATA_NOT_FINAL` (`queryViewerWatch`: LIVE and ALL are not final until live data is) by polling, each poll a new signed request. Off by
   * default: live data that is not final is a state the caller should know about. `true` uses the defaults
   * (every 5 s, for up to 10 minutes); when time runs out the last `WATCH_DATA_NOT_FINAL` error is thrown.
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
   * Issues a one-time login ticket for a viewer and a published webinar (`issueLoginTicket`). Hand `loginUrl` to the user
   * as returned; never log it or the ticket (they are temporary credentials).
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
   * const page = await client.queryViewerWatch({ ticketCode: "WBN8K2QX", playbackMode: "REPLAY", sort: "WATCH_SECONDS_DESC", pageSize: 50 });
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
   * for await (const record of client.iterateViewerWatch({ ticketCode: "WBN8K2QX", playbackMode: "REPLAY", sort: "WATCH_SECONDS_DESC" })) {
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
   * const records = await client.queryViewerWatchByIds({ ticketCode: "WBN8K2QX", playbackMode: "REPLAY", sort: "WATCH_SECONDS_DESC", uids });
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
   * const { data, error } = await client.raw.POST("/api/v1/open/watch-data/overview", { body: { ticketCode: "WBN8K2QX", playbackMode: "LIVE" } });
   */
  readonly raw: Client<paths>;
}

/** The init of one attempt's `client.raw.POST`: the body, read back as text, the attempt's signal and `fetch`. */
type PostInit<Op extends OperationId> = {
  body: RequestBody<Op>;
  parseAs: "text";
  signal: AbortSignal;
  fetch: FetchLike;
};

function resultOf<Op extends OperationId>(operationId: Op, answer: FinalAnswer): WithRequestId<ResponseData<Op>> {
  const { envelope, status, headers, attempts } = answer;
  if (envelope.kind === "success") return withRequestId(envelope.data as ResponseData<Op>, envelope.requestId);
  if (envelope.kind === "error") {
    throw new WebinarApiError({
      operationId,
      status,
      code: envelope.code as OperationErrorCode<Op>,
      message: envelope.message,
      requestId: envelope.requestId,
      details: envelope.details,
      headers,
      attempts,
    });
  }
  throw new WebinarResponseError(
    `HTTP ${status}: ${envelope.problem}, not the API's JSON envelope (content-type ${headers.get("content-type") ?? "none"})`,
    {
      status,
      body: answer.body,
      headers,
      requestId: envelope.requestId,
      attempts,
    },
  );
}

/**
 * Creates a client. Options are checked here: a missing secret, a base URL with a query string or a browser
 * environment fail now, not on the first request.
 *
 * @example
 * import { createWebinarClient } from "@org/webinar-client";
 *
 * const client = createWebinarClient({
 *   baseUrl: process.env.WEBINAR_BASE_URL!,
 *   apiKey: process.env.WEBINAR_API_KEY!,
 *   secret: process.env.WEBINAR_API_SECRET!,
 * });
 * const { viewer } = await client.upsertViewer({ externalUserId: "crm-10086" });
 * const { loginUrl } = await client.issueLoginTicket({ uid: viewer.uid, ticketCode: "WBN8K2QX" });
 */
export function createWebinarClient(options: WebinarClientOptions): WebinarClient {
  const signing = createSigning(options);
  const { baseUrl, defaults, runtime: injected } = resolveClientOptions(options);
  const runtime: CallRuntime = { ...injected, skew: signing.skew };
  const raw = createClient<paths>({ baseUrl, fetch: runtime.fetch, redirect: noFollowRedirect() });
  raw.use(signing.middleware);
  // Signing must see the final request, so middlewares added later through client.raw.use() go before it.
  const use = raw.use.bind(raw);
  raw.use = (...middlewares) => {
    raw.eject(signing.middleware);
    use(...middlewares, signing.middleware);
  };
  // The path each operation is sent to (openapi-fetch drops the base URL's trailing slash), for log entries.
  const basePath = new URL(baseUrl).pathname.replace(/\/$/, "");

  async function call<Op extends OperationId>(
    operationId: Op,
    post: (init: PostInit<Op>) => Promise<PostResult>,
    body: RequestBody<Op>,
    options: CallOptions = {},
  ): Promise<WithRequestId<ResponseData<Op>>> {
    const answer = await sendCall(
      runtime,
      {
        operationId,
        path: basePath + operations[operationId].path,
        retry: options.retry === undefined ? defaults.retry : resolveRetryPolicy(options.retry, defaults.retry),
        timeoutMs: options.timeoutMs === undefined ? defaults.timeoutMs : checkTimeoutMs(options.timeoutMs),
        signal: options.signal,
      },
      (signal, fetch) => post({ body, parseAs: "text", signal, fetch }),
    );
    return resultOf(operationId, answer);
  }

  const queryPage = (body: QueryViewerWatchRequest, options: CallOptions) =>
    call("queryViewerWatch", (init) => raw.POST(operations.queryViewerWatch.path, init), body, options);

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
        const overview = await client.getWatchOverview({ ticketCode, playbackMode: "LIVE" }, callOptions);
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

  const client: WebinarClient = {
    upsertViewer: (body, options) =>
      call("upsertViewer", (init) => raw.POST(operations.upsertViewer.path, init), body, options),
    issueLoginTicket: (body, options) =>
      call("issueLoginTicket", (init) => raw.POST(operations.issueLoginTicket.path, init), body, options),
    getWatchOverview: (body, options) =>
      call("getWatchOverview", (init) => raw.POST(operations.getWatchOverview.path, init), body, options),
    queryViewerWatch,
    iterateViewerWatch,
    queryViewerWatchByIds,
    waitForLiveFinal,
    raw,
  };
  return client;
}
