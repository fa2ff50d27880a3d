import type { ViewerWatchRecord } from "@org/webinar-types";
import { describe, expect, it } from "vitest";
import { CSV_COLUMNS, csvField, csvHeader, csvRow } from "./csv";

describe("csvField (RFC 4180)", () => {
  it.each([
    { rule: "plain text is unquoted", value: "crm-10086", expected: "crm-10086" },
    { rule: "numbers as decimal", value: 10086, expected: "10086" },
    { rule: "absent is empty", value: undefined, expected: "" },
    { rule: "a comma is quoted", value: "Chen, Alice", expected: '"Chen, Alice"' },
    { rule: "a quote is doubled inside quotes", value: 'say "hi"', expected: '"say ""hi"""' },
    { rule: "a line feed is quoted", value: "a\nb", expected: '"a\nb"' },
    { rule: "a carriage return is quoted", value: "a\rb", expected: '"a\rb"' },
    { rule: "non-ASCII is kept as is", value: "张三 🎉", expected: "张三 🎉" },
    { rule: "arrays are joined with |", value: ["MOBILE", "TABLET"], expected: "MOBILE|TABLET" },
    { rule: "an empty array is empty", value: [], expected: "" },
  ])("$rule", ({ value, expected }) => {
    expect(csvField(value)).toBe(expected);
  });
});

describe("csvRow", () => {
  const record: ViewerWatchRecord = {
    subjectId: "sub_1",
    identityType: "REGISTERED",
    displayNickname: "Viewer 0001",
    uid: 10001,
    externalUserId: "crm-1",
    displayName: 'Chen, "Alice"',
    totalWatchSeconds: 90,
    liveWatchSeconds: 45,
    replayWatchSeconds: 45,
    sessionCount: 2,
    firstWatchedAt: "2026-01-01T10:00:00Z",
    lastWatchedAt: "2026-01-01T10:30:00Z",
    deviceTypes: ["DESKTOP", "MOBILE"],
    protocols: ["HLS"],
  };

  it("one field per column in header order, CRLF-terminated, absent phone empty", () => {
    expect(csvHeader()).toBe(`${CSV_COLUMNS.join(",")}\r\n`);
    expect(csvRow(record)).toBe(
      '10001,crm-1,,"Chen, ""Alice""",Viewer 0001,90,45,45,2,2026-01-01T10:00:00Z,2026-01-01T10:30:00Z,DESKTOP|MOBILE,HLS,REGISTERED,sub_1\r\n',
    );
  });
});
