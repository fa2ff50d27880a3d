import type { Sort, ViewerWatchRecord } from "@org/webinar-types";
import { describe, expect, it } from "vitest";
import { mergeViewerWatch } from "./viewer-watch-order";

const record = (
  uid: number,
  totalWatchSeconds: number,
  firstWatchedAt: string,
  lastWatchedAt: string,
): ViewerWatchRecord => ({
  subjectId: `s-${uid}`,
  identityType: "REGISTERED",
  displayNickname: `n-${uid}`,
  uid,
  totalWatchSeconds,
  liveWatchSeconds: totalWatchSeconds,
  replayWatchSeconds: 0,
  sessionCount: 1,
  firstWatchedAt,
  lastWatchedAt,
  deviceTypes: ["DESKTOP"],
  protocols: ["HLS"],
});

const records = [
  record(10003, 100, "2026-01-01T10:00:00Z", "2026-01-01T11:00:00Z"),
  record(10001, 300, "2026-01-01T10:05:00Z", "2026-01-01T10:30:00Z"),
  record(10002, 100, "2026-01-01T10:00:00Z", "2026-01-01T11:00:00.000Z"),
  record(10004, 50, "2026-01-01T09:00:00.5Z", "2026-01-01T12:00:00Z"),
];

describe("mergeViewerWatch", () => {
  it.each([
    {
      rule: "queryViewerWatch: WATCH_SECONDS_DESC: totalWatchSeconds descending, ties by uid",
      sort: "WATCH_SECONDS_DESC",
      uids: [10001, 10002, 10003, 10004],
    },
    {
      rule: "queryViewerWatch: LAST_WATCHED_DESC: lastWatchedAt descending (as instants, not strings), ties by uid",
      sort: "LAST_WATCHED_DESC",
      uids: [10004, 10002, 10003, 10001],
    },
    {
      rule: "queryViewerWatch: FIRST_WATCHED_ASC: firstWatchedAt ascending, ties by uid",
      sort: "FIRST_WATCHED_ASC",
      uids: [10004, 10002, 10003, 10001],
    },
  ] as { rule: string; sort: Sort; uids: number[] }[])("$rule", ({ sort, uids }) => {
    expect(mergeViewerWatch(records, sort).map((item) => item.uid)).toEqual(uids);
  });

  it("keeps one record per uid (the first seen), whichever batch it came from", () => {
    const duplicate = { ...records[0]!, displayNickname: "second copy" };
    const merged = mergeViewerWatch([...records, duplicate], "WATCH_SECONDS_DESC");
    expect(merged).toHaveLength(4);
    expect(merged.find((item) => item.uid === 10003)?.displayNickname).toBe("n-10003");
  });

  it("an unknown sort is a RangeError", () => {
    expect(() => mergeViewerWatch(records, "NEWEST" as Sort)).toThrow(RangeError);
  });
});
