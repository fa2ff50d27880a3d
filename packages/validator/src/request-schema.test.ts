import { describe, expect, it } from "vitest";
import { validateRequestSchema } from "./request-schema";

const query = { ticketCode: "WBN8K2QX", playbackMode: "ALL", sort: "WATCH_SECONDS_DESC", pageSize: 10 };

describe("validateRequestSchema: x-error-code covers a property's own constraints only (§4.6)", () => {
  it.each([
    { rule: "§4.6 uids above 300 (maxItems) -> WATCH_REQUEST_INVALID", body: { ...query, uids: Array(301).fill(10001) }, expected: [["/uids", "maxItems", "WATCH_REQUEST_INVALID"]] },
    { rule: "§4.6 cursor above 1024 (maxLength) -> WATCH_REQUEST_INVALID", body: { ...query, cursor: "c".repeat(1025) }, expected: [["/cursor", "maxLength", "WATCH_REQUEST_INVALID"]] },
    { rule: "§4.6 a uid out of range inside uids -> REQUEST_INVALID (\"UID\")", body: { ...query, uids: [1] }, expected: [["/uids/0", "minimum", "REQUEST_INVALID"]] },
    { rule: "§4.6 an over-long entry of externalUserIds -> REQUEST_INVALID", body: { ...query, externalUserIds: ["e".repeat(192)] }, expected: [["/externalUserIds/0", "maxLength", "REQUEST_INVALID"]] },
    { rule: "a cursor of the wrong type is malformed -> REQUEST_INVALID", body: { ...query, cursor: 1 }, expected: [["/cursor", "type", "REQUEST_INVALID"]] },
    { rule: "uids of the wrong type is malformed -> REQUEST_INVALID", body: { ...query, uids: {} }, expected: [["/uids", "type", "REQUEST_INVALID"]] },
  ])("$rule", ({ body, expected }) => {
    expect(validateRequestSchema("queryViewerWatch", body).map(({ pointer, rule, code }) => [pointer, rule, code])).toEqual(expected);
  });

  it("a valid body has no issues", () => {
    expect(validateRequestSchema("queryViewerWatch", query)).toEqual([]);
  });

  it("§2.6 a missing or unknown property is pointed at by its own name, ~ and / escaped", () => {
    const issues = validateRequestSchema("getWatchOverview", { ticketCode: "A", "a/b~c": 1 });
    expect(issues.map(({ pointer, rule }) => [pointer, rule])).toEqual([
      ["/playbackMode", "required"],
      ["/a~1b~0c", "additionalProperties"],
    ]);
  });

  it("an enum violation lists the allowed values in its message", () => {
    expect(validateRequestSchema("getWatchOverview", { ticketCode: "A", playbackMode: "X" })[0]?.message).toBe('must be one of "ALL", "LIVE", "REPLAY"');
  });
});
