/**
 * Types of the Webinar Open API, generated from spec/openapi.yaml, plus the spec's machine-readable
 * facts (limits, error catalog, operations) as constants.
 *
 * @example
 * ```ts
 * import type { UpsertViewerRequest, Viewer } from "@org/webinar-types";
 * const body: UpsertViewerRequest = { externalUserId: "crm-000123", phone: "13800138000" };
 * ```
 */
import type { components, operations as operationTypes, paths } from "./openapi.gen";
import { errorCatalog, limits, operations } from "./spec.gen";

export type { components, paths };
export { errorCatalog, limits, operations };

type Schemas = components["schemas"];

/** A viewer as returned by upsert (Viewer). `phone` and `displayName` are always present, null when unset. */
export type Viewer = Schemas["Viewer"];
/** A one-time login ticket and the watch URL carrying it (LoginTicket). */
export type LoginTicket = Schemas["LoginTicket"];
/** A statistics block of the overview (WatchStats). */
export type WatchStats = Schemas["WatchStats"];
/** One registered viewer's watch record in the detail query (ViewerWatchRecord). */
export type ViewerWatchRecord = Schemas["ViewerWatchRecord"];
/** The overview's `data` (getWatchOverview). */
export type WatchOverview = Schemas["WatchOverview"];
/** One page of the detail query's `data` (queryViewerWatch). */
export type ViewerWatchPage = Schemas["ViewerWatchPage"];
/** `data` of a successful upsert: the viewer and whether this call created it (upsertViewer). */
export type UpsertViewerResult = Schemas["UpsertViewerResult"];

/** Request body of `POST /api/v1/open/viewers/upsert` (upsertViewer). */
export type UpsertViewerRequest = Schemas["UpsertViewerRequest"];
/** Request body of `POST /api/v1/open/viewers/login-tickets` (issueLoginTicket). */
export type IssueLoginTicketRequest = Schemas["IssueLoginTicketRequest"];
/** Request body of `POST /api/v1/open/watch-data/overview` (getWatchOverview). */
export type GetWatchOverviewRequest = Schemas["GetWatchOverviewRequest"];
/** Request body of `POST /api/v1/open/watch-data/viewers/query` (queryViewerWatch). */
export type QueryViewerWatchRequest = Schemas["QueryViewerWatchRequest"];

/** Success envelope of upsert: `{ requestId, data }`. */
export type UpsertViewerResponse = Schemas["UpsertViewerResponse"];
/** Success envelope of the ticket operation. */
export type IssueLoginTicketResponse = Schemas["IssueLoginTicketResponse"];
/** Success envelope of the overview. */
export type GetWatchOverviewResponse = Schemas["GetWatchOverviewResponse"];
/** Success envelope of the detail query. */
export type QueryViewerWatchResponse = Schemas["QueryViewerWatchResponse"];
/** Error envelope of every operation (ErrorEnvelope): `{ requestId, error: { code, message, details? } }`. */
export type ErrorEnvelope = Schemas["ErrorEnvelope"];
/** The `error` object of the error envelope. */
export type ErrorBody = Schemas["ErrorBody"];

/** Every error code of the API (Errors and retries). */
export type ErrorCode = Schemas["ErrorCode"];
/** `ALL`, `LIVE` or `REPLAY`. */
export type PlaybackMode = Schemas["PlaybackMode"];
/** The three sort orders of the detail query. */
export type Sort = Schemas["Sort"];
/** `PROVISIONAL`, `FINALIZING` or `FINAL` (Data states). */
export type DataState = Schemas["DataState"];
/** How a client may treat an error code: `never` retry, retry with `backoff`, or `poll` later. */
export type RetryClass = (typeof errorCatalog)[ErrorCode]["retry"];

/** The four operation ids. */
export type OperationId = keyof typeof operations;
/** Request path of each operation, e.g. `OperationPath<"upsertViewer">` is `"/api/v1/open/viewers/upsert"`. */
export type OperationPath<Op extends OperationId> = (typeof operations)[Op]["path"];
type OperationErrors<Op extends OperationId> = (typeof operations)[Op]["errors"];
/** The error codes one operation can return, from the spec's `x-error-codes`. */
export type OperationErrorCode<Op extends OperationId> = {
  [Status in keyof OperationErrors<Op>]: OperationErrors<Op>[Status] extends readonly (infer Code)[] ? Code : never;
}[keyof OperationErrors<Op>];
/** Error codes of upsert. */
export type UpsertViewerErrorCode = OperationErrorCode<"upsertViewer">;
/** Error codes of the ticket operation. */
export type IssueLoginTicketErrorCode = OperationErrorCode<"issueLoginTicket">;
/** Error codes of the overview. */
export type GetWatchOverviewErrorCode = OperationErrorCode<"getWatchOverview">;
/** Error codes of the detail query. */
export type QueryViewerWatchErrorCode = OperationErrorCode<"queryViewerWatch">;
/** Request body of an operation by id. */
export type RequestBody<Op extends OperationId> = NonNullable<
  operationTypes[Op]["requestBody"]
>["content"]["application/json"];
/** Success `data` of an operation by id. */
export type ResponseData<Op extends OperationId> =
  operationTypes[Op]["responses"][200]["content"]["application/json"]["data"];
