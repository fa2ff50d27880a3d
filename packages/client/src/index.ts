/**
 * The typed, signed client of the Webinar Open API: `createWebinarClient` and its errors. The `webinar` command
 * line tool is the package's `bin` (src/cli.ts).
 *
 * @example
 * ```ts
 * import { createWebinarClient } from "@org/webinar-client";
 *
 * const client = createWebinarClient({ baseUrl, apiKey, secret });
 * const { viewer } = await client.upsertViewer({ externalUserId: "crm-10086" });
 * const { loginUrl } = await client.issueLoginTicket({ uid: viewer.uid, ticketCode: "WBN8K2QX" });
 * ```
 */
export { createWebinarClient } from "./client";
export type {
  CallOptions,
  IterateViewerWatchOptions,
  QueryViewerWatchOptions,
  ViewerWatchByIdsQuery,
  WaitForLiveFinalOptions,
  WebinarClient,
} from "./client";
export type { WebinarClientOptions } from "./client-options";
export { DEFAULT_SKEW_THRESHOLD_SECONDS } from "./clock-skew";
export {
  isWebinarApiError,
  WebinarApiError,
  WebinarConnectionError,
  WebinarError,
  WebinarResponseError,
  WebinarTimeoutError,
} from "./errors";
export type { ConnectionFailure, TimeoutPhase } from "./errors";
export type { WaitForFinalOptions } from "./polling";
export type { CryptoBackend, CryptoPreference } from "@org/webinar-signing";
export type { RequestLogEntry, RequestLogError, RequestLogger } from "./request-log";
export { defaultRetryPolicy } from "./retry-policy";
export type { RetryOptions, RetryPolicy } from "./retry-policy";
export type { FetchLike, Sleep } from "./signed-fetch";
export type { PaginationLimits, ViewerWatchIterable, ViewerWatchQuery } from "./viewer-watch-pages";
export type { WithRequestId } from "./with-request-id";
export type {
  ErrorCode,
  GetWatchOverviewRequest,
  IssueLoginTicketRequest,
  LoginTicket,
  OperationErrorCode,
  OperationId,
  PlaybackMode,
  QueryViewerWatchRequest,
  Sort,
  UpsertViewerRequest,
  UpsertViewerResult,
  Viewer,
  ViewerWatchPage,
  ViewerWatchRecord,
  WatchOverview,
} from "@org/webinar-types";
