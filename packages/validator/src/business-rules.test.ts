import { limits } from "@org/webinar-types";
import { describe, expect, it } from "vitest";
import { checkCombinedIds, checkDisplayNameCharacters, dropBlankPhone, trimRequestFields } from "./business-rules";

const ids = (count: number) => Array.from({ length: count }, (_, index) => `id-${index}`);

describe("trimRequestFields (§4.3)", () => {
  it.each([
    { rule: "§4.3 externalUserId is trimmed", body: { externalUserId: "  crm-1\t\n" }, expected: { externalUserId: "crm-1" } },
    { rule: "§4.3 displayName is trimmed", body: { externalUserId: "a", displayName: " 张三 " }, expected: { externalUserId: "a", displayName: "张三" } },
    { rule: "§4.3 trimming removes Unicode white space (ideographic space, NBSP)", body: { externalUserId: "\u3000crm-1\u00a0" }, expected: { externalUserId: "crm-1" } },
    { rule: "§4.3 inner white space is kept", body: { externalUserId: " a b " }, expected: { externalUserId: "a b" } },
    { rule: "§4.3 white space only becomes empty (then the schema rejects it)", body: { externalUserId: "   " }, expected: { externalUserId: "" } },
    { rule: "§4.3 phone is not trimmed (its format has no white space)", body: { externalUserId: "a", phone: " 13800138000 " }, expected: { externalUserId: "a", phone: " 13800138000 " } },
    { rule: "§4.3 displayName null stays null (it clears the name)", body: { externalUserId: "a", displayName: null }, expected: { externalUserId: "a", displayName: null } },
    { rule: "values of the wrong type are left to the schema", body: { externalUserId: 12 }, expected: { externalUserId: 12 } },
  ])("$rule", ({ body, expected }) => {
    trimRequestFields("upsertViewer", body);
    expect(body).toEqual(expected);
  });

  it("§4.6 externalUserIds of the detail query are not trimmed (the spec does not say so)", () => {
    const body = { externalUserIds: [" a "], ticketCode: " x " };
    trimRequestFields("queryViewerWatch", body);
    expect(body).toEqual({ externalUserIds: [" a "], ticketCode: " x " });
  });
});

describe("checkCombinedIds (§4.6, §8)", () => {
  const max = limits.maxCombinedIds;
  it.each([
    { rule: `§8 ${max} uids alone`, uids: max, externalUserIds: 0, count: undefined },
    { rule: `§8 ${max} combined`, uids: max - 100, externalUserIds: 100, count: undefined },
    { rule: `§8 ${max + 1} combined -> WATCH_REQUEST_INVALID`, uids: max - 100, externalUserIds: 101, count: max + 1 },
    { rule: `§8 ${max + 1} externalUserIds alone -> WATCH_REQUEST_INVALID`, uids: 0, externalUserIds: max + 1, count: max + 1 },
  ])("$rule", ({ uids, externalUserIds, count }) => {
    const issue = checkCombinedIds("queryViewerWatch", { uids: Array<number>(uids).fill(10001), externalUserIds: ids(externalUserIds) });
    if (count === undefined) expect(issue).toBeUndefined();
    else expect(issue).toMatchObject({ pointer: "", rule: "maxCombinedIds", code: "WATCH_REQUEST_INVALID", count, limit: max });
  });

  it("§4.6 duplicates count: the same id 301 times", () => {
    expect(checkCombinedIds("queryViewerWatch", { uids: Array<number>(200).fill(10001), externalUserIds: Array<string>(101).fill("a") })?.count).toBe(301);
  });

  it("lists that are not arrays are left to the schema", () => {
    expect(checkCombinedIds("queryViewerWatch", { uids: "x".repeat(400), externalUserIds: null })).toBeUndefined();
  });

  it("applies to the detail query only", () => {
    expect(checkCombinedIds("getWatchOverview", { uids: Array<number>(400).fill(1) })).toBeUndefined();
  });
});

describe("checkDisplayNameCharacters (§4.3 no control characters or line breaks)", () => {
  it.each([
    ["NUL", "a\u0000b", false],
    ["DEL", "a\u007fb", false],
    ["NEL (C1)", "a\u0085b", false],
    ["U+2029 paragraph separator", "a\u2029b", false],
    ["ESC", "\u001b[31mred", false],
    ["plain text", "Alice Chen", true],
    ["CJK and emoji", "张三 🐼", true],
    ["a zero-width joiner (format, not control)", "👩\u200d💻", true],
  ])("%s", (_name, displayName, allowed) => {
    const issue = checkDisplayNameCharacters("upsertViewer", { externalUserId: "a", displayName });
    if (allowed) expect(issue).toBeUndefined();
    else expect(issue).toMatchObject({ pointer: "/displayName", rule: "pattern", code: "REQUEST_INVALID" });
  });

  it("null clears and is not checked", () => {
    expect(checkDisplayNameCharacters("upsertViewer", { externalUserId: "a", displayName: null })).toBeUndefined();
  });
});

describe("dropBlankPhone (§4.3 omitted, empty or whitespace-only keeps the old value)", () => {
  it.each([
    ["empty", "", undefined],
    ["spaces", "   ", undefined],
    ["tab and ideographic space", "\t\u3000", undefined],
    ["a number", "13800138000", "13800138000"],
  ])("%s", (_name, phone, expected) => {
    const body: Record<string, unknown> = { externalUserId: "a", phone };
    dropBlankPhone("upsertViewer", body);
    expect(body.phone).toBe(expected);
    expect("phone" in body).toBe(expected !== undefined);
  });
});
