import type { ViewerWatchRecord } from "@org/webinar-types";
import { describe, expect, it } from "vitest";
import { csvField, VIEWER_CSV_COLUMNS, viewerCsvHeader, viewerCsvLines } from "./csv";

describe("csvField: RFC 4180 quoting", () => {
  it.each([
    { rule: "plain text is unquoted", value: "crm-10086", expected: "crm-10086" },
    { rule: "numbers as decimal", value: 10086, expected: "10086" },
    { rule: "absent is empty", value: undefined, expected: "" },
    { rule: "a comma is quoted", value: "Chen, Alice", expected: '"Chen, Alice"' },
    { rule: "a quote is doubled inside quotes", value: 'say "hi"', expected: '"say ""hi"""' },
    { rule: "a line feed is quoted", value: "a\nb", expected: '"a\nb"' },
    { rule: "a carriage return is quoted", value: "a\rb", expected: '"a\rb"' },
    { rule: "a semicolon, a separator in many locales, is quoted", value: "Wang; Fang", expected: '"Wang; Fang"' },
    { rule: "a semicolon that would start a formula cell is quoted", value: "x;=1+1", expected: '"x;=1+1"' },
    { rule: "non-ASCII is kept as is", value: "张三 🎉", expected: "张三 🎉" },
    { rule: "arrays are joined with |", value: ["MOBILE", "TABLET"], expected: "MOBILE|TABLET" },
    { rule: "an empty array is empty", value: [], expected: "" },
  ])("$rule", ({ value, expected }) => {
    expect(csvField(value)).toBe(expected);
  });
});

describe("csvField: a text a spreadsheet would read as a formula gets a leading ' and quotes", () => {
  it.each([
    { rule: "= starts a formula", value: "=HYPERLINK(1)", expected: '"\'=HYPERLINK(1)"' },
    { rule: "+ starts a formula", value: "+1+1", expected: '"\'+1+1"' },
    { rule: "- starts a formula", value: "-2+3", expected: '"\'-2+3"' },
    { rule: "@ starts a formula", value: "@SUM(A1)", expected: '"\'@SUM(A1)"' },
    { rule: "a leading tab is defused", value: "\t=1", expected: '"\'\t=1"' },
    { rule: "a leading carriage return is defused", value: "\r=1", expected: '"\'\r=1"' },
    { rule: "defused, its quotes doubled", value: '=A1,"x"', expected: '"\'=A1,""x"""' },
    { rule: "a formula character later in the text is left alone", value: "Li=Wei", expected: "Li=Wei" },
    { rule: "a negative number is a number, not prefixed", value: -5, expected: "-5" },
    { rule: "an array whose text starts a formula", value: ["=1", "HLS"], expected: '"\'=1|HLS"' },
  ])("$rule", ({ value, expected }) => {
    expect(csvField(value)).toBe(expected);
  });
});

describe("viewerCsvHeader and viewerCsvLines (queryViewerWatch's ViewerWatchRecord)", () => {
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

  it("the header names every column in order, CRLF-terminated; the byte-order mark only when asked for", () => {
    expect(viewerCsvHeader()).toBe(
      "uid,externalUserId,phone,displayName,displayNickname,totalWatchSeconds,liveWatchSeconds,replayWatchSeconds," +
        "sessionCount,firstWatchedAt,lastWatchedAt,deviceTypes,protocols,identityType,subjectId\r\n",
    );
    expect(viewerCsvHeader({ byteOrderMark: false })).toBe(viewerCsvHeader());
    expect(viewerCsvHeader({ byteOrderMark: true })).toBe(`\uFEFF${viewerCsvHeader()}`);
  });

  it("one field per column in header order, CRLF-terminated, absent phone empty", () => {
    expect(viewerCsvLines([record])).toBe(
      '10001,crm-1,,"Chen, ""Alice""",Viewer 0001,90,45,45,2,2026-01-01T10:00:00Z,2026-01-01T10:30:00Z,DESKTOP|MOBILE,HLS,REGISTERED,sub_1\r\n',
    );
  });

  it("each text field goes through csvField: a display name or external user id that starts a formula is defused", () => {
    const hostile = { ...record, displayName: "=HYPERLINK(1)", externalUserId: "-crm-1" };
    const fields = viewerCsvLines([hostile]).slice(0, -2).split(",");
    expect(fields).toHaveLength(VIEWER_CSV_COLUMNS.length);
    expect(fields[VIEWER_CSV_COLUMNS.indexOf("displayName")]).toBe('"\'=HYPERLINK(1)"');
    expect(fields[VIEWER_CSV_COLUMNS.indexOf("externalUserId")]).toBe('"\'-crm-1"');
  });

  it("several records: one line each, in the order given; none is nothing", () => {
    const second = { ...record, uid: 10002, displayName: "Li" };
    expect(viewerCsvLines([record, second])).toBe(viewerCsvLines([record]) + viewerCsvLines([second]));
    expect(viewerCsvLines([])).toBe("");
  });
});
