import { describe, expect, it } from "vitest";
import { validateRequestSchema } from "./request-schema";

const query = { ticketCode: "WBN8K2QX", playbackMode: "ALL", sort: "WATCH_SECONDS_DESC", pageSize: 10 };

describe("validateRequestSchema: x-error-code covers a property's own constraints only (queryViewerWatch)", () => {
  it.each([
    {
      rule: "queryViewerWatch uids above 300 (maxItems) -> WATCH_REQUEST_INVALID",
      body: { ...query, uids: Array(301).fill(10001) },
      expected: [["/uids", "maxItems", "WATCH_REQUEST_INVALID"]],
    },
    {
      rule: "queryViewerWatch cursor above 1024 (maxLength) -> WATCH_REQUEST_INVALID",
      body: { ...query, cursor: "c".repeat(1025) },
      expected: [["/cursor", "maxLength", "WATCH_REQUEST_INVALID"]],
    },
    {
      rule: 'queryViewerWatch a uid out of range inside uids -> REQUEST_INVALID ("UID")',
      body: { ...query, uids: [1] },
      expected: [["/uids/0", "minimum", "REQUEST_INVALID"]],
    },
    {
      rule: "queryViewerWatch an over-long entry of externalUserIds -> REQUEST_INVALID",
      body: { ...query, externalUserIds: ["e".repeat(192)] },
      expected: [["/externalUserIds/0", "maxLength", "REQUEST_INVALID"]],
    },
    {
      rule: "a cursor of the wrong type is malformed -> REQUEST_INVALID",
      body: { ...query, cursor: 1 },
      expected: [["/cursor", "type", "REQUEST_INVALID"]],
    },
    {
      rule: "uids of the wrong type is malformed -> REQUEST_INVALID",
      body: { ...query, uids: {} },
      expected: [["/uids", "type", "REQUEST_INVALID"]],
    },
  ])("$rule", ({ body, expected }) => {
    expect(
      validateRequestSchema("queryViewerWatch", body).map(({ pointer, rule, code }) => [pointer, rule, code]),
    ).toEqual(expected);
  });

  it("a valid body has no issues", () => {
    expect(validateRequestSchema("queryViewerWatch", query)).toEqual([]);
  });

  it("Conventions: a missing or unknown property is pointed at by its own name, ~ and / escaped", () => {
    const issues = validateRequestSchema("getWatchOverview", { ticketCode: "A", "a/b~c": 1 });
    expect(issues.map(({ pointer, rule }) => [pointer, rule])).toEqual([
      ["/playbackMode", "required"],
      ["/a~1b~0c", "additionalProperties"],
    ]);
  });

  it("an enum violation lists the allowed values in its message", () => {
    expect(validateRequestSchema("getWatchOverview", { ticketCode: "A", playbackMode: "X" })[0]?.message).toBe(
      'must be one of "ALL", "LIVE", "REPLAY"',
    );
  });
});

describe("validateRequestSchema: a pattern's message is the spec's words for it (x-pattern-message)", () => {
  it.each([
    {
      field: "externalUserId with a NUL",
      operationId: "upsertViewer",
      body: { externalUserId: "a\u0000b" },
      pointer: "/externalUserId",
      words: "must not contain a control character",
    },
    {
      field: "phone of letters",
      operationId: "upsertViewer",
      body: { externalUserId: "u-1", phone: "call me" },
      pointer: "/phone",
      words: "must be a mainland-China mobile number",
    },
    {
      field: "ticketCode with a space",
      operationId: "issueLoginTicket",
      body: { uid: 10001, ticketCode: "wbn 1" },
      pointer: "/ticketCode",
      words: "must contain only letters, digits, _ and -",
    },
    {
      field: "cursor with a line feed",
      operationId: "queryViewerWatch",
      body: { ...query, cursor: "c\nd" },
      pointer: "/cursor",
      words: "must not contain a control character",
    },
  ] as const)("$field", ({ operationId, body, pointer, words }) => {
    const issues = validateRequestSchema(operationId, body);
    expect(issues).toEqual([expect.objectContaining({ pointer, rule: "pattern" })]);
    expect(issues[0]!.message).toContain(words);
    expect(issues[0]!.message).not.toContain("must match pattern");
  });
});
