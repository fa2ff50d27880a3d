import { limits } from "@org/webinar-types";
import { describe, expect, it } from "vitest";
import { checkCombinedIds, dropBlankPhone, trimRequestFields } from "./business-rules";

const ids = (count: number) => Array.from({ length: count }, (_, index) => `id-${index}`);

describe("trimRequestFields (upsertViewer)", () => {
  it.each([
    {
      rule: "upsertViewer: externalUserId is trimmed",
      body: { externalUserId: "  crm-1\t\n" },
      expected: { externalUserId: "crm-1" },
    },
    {
      rule: "upsertViewer: displayName is trimmed",
      body: { externalUserId: "a", displayName: " 张三 " },
      expected: { externalUserId: "a", displayName: "张三" },
    },
    {
      rule: "upsertViewer: trimming removes Unicode white space (ideographic space, NBSP)",
      body: { externalUserId: "\u3000crm-1\u00a0" },
      expected: { externalUserId: "crm-1" },
    },
    {
      rule: "upsertViewer: control characters that are no white space (NUL, NEL) are not trimmed: the schema rejects them",
      body: { externalUserId: "\u0000crm-1\u0085" },
      expected: { externalUserId: "\u0000crm-1\u0085" },
    },
    {
      rule: "upsertViewer: inner white space is kept",
      body: { externalUserId: " a b " },
      expected: { externalUserId: "a b" },
    },
    {
      rule: "upsertViewer: white space only becomes empty (then the schema rejects it)",
      body: { externalUserId: "   " },
      expected: { externalUserId: "" },
    },
    {
      rule: "upsertViewer: phone is not trimmed (its format has no white space)",
      body: { externalUserId: "a", phone: " 13800138000 " },
      expected: { externalUserId: "a", phone: " 13800138000 " },
    },
    {
      rule: "upsertViewer: displayName null stays null (it clears the name)",
      body: { externalUserId: "a", displayName: null },
      expected: { externalUserId: "a", displayName: null },
    },
    {
      rule: "values of the wrong type are left to the schema",
      body: { externalUserId: 12 },
      expected: { externalUserId: 12 },
    },
  ])("$rule", ({ body, expected }) => {
    trimRequestFields("upsertViewer", body);
    expect(body).toEqual(expected);
  });

  it("queryViewerWatch: externalUserIds of the detail query are not trimmed (the spec does not say so)", () => {
    const body = { externalUserIds: [" a "], ticketCode: " x " };
    trimRequestFields("queryViewerWatch", body);
    expect(body).toEqual({ externalUserIds: [" a "], ticketCode: " x " });
  });
});

describe("checkCombinedIds (queryViewerWatch, Limits)", () => {
  const max = limits.maxCombinedIds;
  it.each([
    { rule: `Limits: ${max} uids alone`, uids: max, externalUserIds: 0, count: undefined },
    { rule: `Limits: ${max} combined`, uids: max - 100, externalUserIds: 100, count: undefined },
    {
      rule: `Limits: ${max + 1} combined -> WATCH_REQUEST_INVALID`,
      uids: max - 100,
      externalUserIds: 101,
      count: max + 1,
    },
    {
      rule: `Limits: ${max + 1} externalUserIds alone -> WATCH_REQUEST_INVALID`,
      uids: 0,
      externalUserIds: max + 1,
      count: max + 1,
    },
  ])("$rule", ({ uids, externalUserIds, count }) => {
    const issue = checkCombinedIds("queryViewerWatch", {
      uids: Array<number>(uids).fill(10001),
      externalUserIds: ids(externalUserIds),
    });
    if (count === undefined) expect(issue).toBeUndefined();
    else
      expect(issue).toMatchObject({
        pointer: "",
        rule: "maxCombinedIds",
        code: "WATCH_REQUEST_INVALID",
        count,
        limit: max,
      });
  });

  it("queryViewerWatch: duplicates count: the same id 301 times", () => {
    expect(
      checkCombinedIds("queryViewerWatch", {
        uids: Array<number>(200).fill(10001),
        externalUserIds: Array<string>(101).fill("a"),
      })?.count,
    ).toBe(301);
  });

  it("lists that are not arrays are left to the schema", () => {
    expect(checkCombinedIds("queryViewerWatch", { uids: "x".repeat(400), externalUserIds: null })).toBeUndefined();
  });

  it("applies to the detail query only", () => {
    expect(checkCombinedIds("getWatchOverview", { uids: Array<number>(400).fill(1) })).toBeUndefined();
  });
});

describe("dropBlankPhone (upsertViewer: omitted, empty or whitespace-only phone keeps the old value)", () => {
  it.each([
    ["empty", "", undefined],
    ["spaces", "   ", undefined],
    ["ideographic and no-break space", "\u3000\u00a0", undefined],
    ["a number", "13800138000", "13800138000"],
  ])("%s", (_name, phone, expected) => {
    const body: Record<string, unknown> = { externalUserId: "a", phone };
    dropBlankPhone("upsertViewer", body);
    expect(body.phone).toBe(expected);
    expect("phone" in body).toBe(expected !== undefined);
  });
});
