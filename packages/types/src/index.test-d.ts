import { describe, expectTypeOf, it } from "vitest";
import type {
  DataState,
  ErrorCode,
  IssueLoginTicketErrorCode,
  OperationPath,
  PlaybackMode,
  QueryViewerWatchErrorCode,
  QueryViewerWatchRequest,
  Sort,
  UpsertViewerErrorCode,
  UpsertViewerRequest,
  Viewer,
  ViewerWatchRecord,
  WatchOverview,
} from "./index";

describe("generated types follow the spec", () => {
  it("upsertViewer: phone: null is rejected in an upsert request, displayName: null is accepted", () => {
    // @ts-expect-error a bound phone cannot be cleared
    const withNullPhone: UpsertViewerRequest = { externalUserId: "crm-1", phone: null };
    const clearName: UpsertViewerRequest = { externalUserId: "crm-1", displayName: null };
    expectTypeOf(withNullPhone).toEqualTypeOf<UpsertViewerRequest>();
    expectTypeOf(clearName.displayName).toEqualTypeOf<string | null | undefined>();
  });

  it("Conventions: unknown fields are a type error in requests", () => {
    // @ts-expect-error unknown fields are rejected
    const body: UpsertViewerRequest = { externalUserId: "crm-1", nickname: "x" };
    expectTypeOf(body).toEqualTypeOf<UpsertViewerRequest>();
  });

  it("Viewer: uid is a number; phone and displayName are present and nullable", () => {
    expectTypeOf<Viewer["uid"]>().toEqualTypeOf<number>();
    expectTypeOf<Viewer["phone"]>().toEqualTypeOf<string | null>();
    expectTypeOf<Viewer["displayName"]>().toEqualTypeOf<string | null>();
  });

  it("ViewerWatchRecord: optional record fields may be omitted and are never null", () => {
    expectTypeOf<ViewerWatchRecord["phone"]>().toEqualTypeOf<string | undefined>();
    expectTypeOf<ViewerWatchRecord["uid"]>().toEqualTypeOf<number>();
    expectTypeOf<WatchOverview["dataUpdatedAt"]>().toEqualTypeOf<string | undefined>();
  });

  it("queryViewerWatch: playbackMode, sort and pageSize are required", () => {
    // @ts-expect-error sort and pageSize have no defaults
    const query: QueryViewerWatchRequest = { ticketCode: "wbn-1", playbackMode: "ALL" };
    expectTypeOf(query).toEqualTypeOf<QueryViewerWatchRequest>();
  });

  it("enums are string unions", () => {
    expectTypeOf<PlaybackMode>().toEqualTypeOf<"ALL" | "LIVE" | "REPLAY">();
    expectTypeOf<Sort>().toEqualTypeOf<"WATCH_SECONDS_DESC" | "LAST_WATCHED_DESC" | "FIRST_WATCHED_ASC">();
    expectTypeOf<DataState>().toEqualTypeOf<"PROVISIONAL" | "FINALIZING" | "FINAL">();
  });

  it("Errors and retries: error codes narrow per operation", () => {
    expectTypeOf<"VIEWER_IDENTITY_CONFLICT">().toExtend<UpsertViewerErrorCode>();
    expectTypeOf<"WATCH_DATA_NOT_FINAL">().not.toExtend<UpsertViewerErrorCode>();
    expectTypeOf<"VIEWER_NOT_FOUND">().toExtend<IssueLoginTicketErrorCode>();
    expectTypeOf<"WATCH_DATA_NOT_FINAL">().toExtend<QueryViewerWatchErrorCode>();
    expectTypeOf<UpsertViewerErrorCode>().toExtend<ErrorCode>();
  });

  it("operation paths are literal types", () => {
    expectTypeOf<OperationPath<"upsertViewer">>().toEqualTypeOf<"/api/v1/open/viewers/upsert">();
  });
});
