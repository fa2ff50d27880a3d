/**
 * The Webinar Open API for openapi-fetch: `createSigningMiddleware` signs the calls of your own openapi-fetch
 * client, and `createWebinarClient` is a typed client built on the same middleware, with retries, pagination and
 * errors to branch on. The `webinar` command line tool is the package's `bin` (src/cli.ts).
 *
 * @example
 * ```ts
 * import createClient from "openapi-fetch";
 * import type { paths } from "@org/webinar-types";
 * import { createSigningMiddleware } from "@org/webinar-client";
 *
 * const api = createClient<paths>({ baseUrl });
 * api.use(createSigningMiddleware({ apiKey, secret }));
 * const { data, error } = await api.POST("/api/v1/open/viewers/upsert", { body: { externalUserId: "crm-10086" } });
 * ```
 */
export type { FetchLike } from "./attempt";
export { createWebinarClient } from "./client";
export type {
  CallOptions,
  IterateViewerWatchOptions,
  QueryViewerWatchOptions,
  ViewerWatchByIdsQuery,
  WaitForLiveFinalOptions,
  WebinarClient,
} from "./webinar-client";
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
export { createSigningMiddleware } from "./signing-middleware";
export type { SigningOptions } from "./signing-middleware";
export type { Sleep } from "./sleep";
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
