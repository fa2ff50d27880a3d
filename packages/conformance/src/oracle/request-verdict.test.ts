import { describe, expect, it } from "vitest";
import { requestVerdict } from "./request-verdict";

const code = (operationId: Parameters<typeof requestVerdict>[0], body: unknown) => {
  const verdict = requestVerdict(operationId, typeof body === "string" ? body : JSON.stringify(body));
  return verdict.ok ? "ok" : verdict.code;
};

describe("the kit's own verdict on request bodies", () => {
  it.each([
    [{ externalUserId: "crm-1" }, "ok"],
    [{ externalUserId: " Qin 2\t", displayName: " 张三 3 " }, "ok"],
    [{ externalUserId: "crm-1", displayName: null, phone: "  " }, "ok"],
    [{ externalUserId: "crm-1", phone: "13800000000" }, "ok"],
    [{ externalUserId: "x".repeat(191) }, "ok"],
    [{ externalUserId: `  ${"x".repeat(191)} ` }, "ok"],
    [{ externalUserId: "👩‍💻🎉" }, "ok"],
    [{ externalUserId: "x".repeat(192) }, "REQUEST_INVALID"],
    [{ externalUserId: "   " }, "REQUEST_INVALID"],
    [{ externalUserId: "a\tb" }, "REQUEST_INVALID"],
    [{ externalUserId: "a\u2028b" }, "REQUEST_INVALID"],
    [{ externalUserId: "a\ud800" }, "REQUEST_INVALID"],
    [{ externalUserId: "crm-1", phone: null }, "REQUEST_INVALID"],
    [{ externalUserId: "crm-1", phone: "12800000000" }, "REQUEST_INVALID"],
    [{ externalUserId: "crm-1", displayName: "" }, "REQUEST_INVALID"],
    [{ externalUserId: "crm-1", extra: 1 }, "REQUEST_INVALID"],
    ["[]", "REQUEST_INVALID"],
    ["{", "REQUEST_INVALID"],
  ])("upsertViewer %j -> %s", (body, expected) => {
    expect(code("upsertViewer", body)).toBe(expected);
  });

  const query = { ticketCode: "wbn-1", playbackMode: "ALL", sort: "WATCH_SECONDS_DESC", pageSize: 10 };
  it.each([
    [query, "ok"],
    [{ ...query, uids: [10000, 9999999], minWatchSeconds: 0 }, "ok"],
    ['{"ticketCode":"wbn-1","playbackMode":"ALL","sort":"WATCH_SECONDS_DESC","pageSize":1e1}', "ok"],
    [{ ...query, pageSize: 101 }, "REQUEST_INVALID"],
    [{ ...query, pageSize: 1.5 }, "REQUEST_INVALID"],
    [{ ...query, uids: [9999] }, "REQUEST_INVALID"],
    [{ ...query, cursor: 5 }, "REQUEST_INVALID"],
    [{ ...query, cursor: "c".repeat(1025) }, "WATCH_REQUEST_INVALID"],
    [{ ...query, uids: Array(301).fill(10000) }, "WATCH_REQUEST_INVALID"],
    [{ ...query, uids: Array(150).fill(10000), externalUserIds: Array(151).fill("a") }, "WATCH_REQUEST_INVALID"],
    [{ ...query, uids: Array(301).fill(10000), pageSize: 0 }, "REQUEST_INVALID"],
  ])("queryViewerWatch %j -> %s", (body, expected) => {
    expect(code("queryViewerWatch", body)).toBe(expected);
  });
});
