import { describe, expect, it } from "vitest";
import { errorCatalog, limits, operations } from "./index";

describe("spec constants generated from x- extensions", () => {
  it("Limits: limits come from x-limits", () => {
    expect(limits.uidMin).toBe(10000);
    expect(limits.maxCombinedIds).toBe(300);
    expect(limits.clockSkewSeconds).toBe(300);
  });

  it.each([
    ["VIEWER_IDENTITY_CONFLICT", 409, "never"],
    ["WATCH_DATA_NOT_FINAL", 409, "poll"],
    ["WATCH_DATA_UNAVAILABLE", 503, "backoff"],
    ["INTERNAL_ERROR", 500, "backoff"],
    ["OPEN_API_UNAUTHORIZED", 401, "never"],
  ] as const)("Errors and retries: %s is %i and retried: %s", (code, status, retry) => {
    expect(errorCatalog[code]).toEqual({ status, retry });
  });

  it("the operations: operations carry their exact paths and error codes per status", () => {
    expect(operations.upsertViewer.path).toBe("/api/v1/open/viewers/upsert");
    expect(operations.queryViewerWatch.errors["400"]).toEqual(["REQUEST_INVALID", "WATCH_REQUEST_INVALID"]);
    expect(Object.keys(errorCatalog)).toHaveLength(18);
  });
});
