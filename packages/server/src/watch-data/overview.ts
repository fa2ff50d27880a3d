/**
 * Query watch-data overview (operation getWatchOverview) from the incrementally maintained counts (record-session.ts):
 * at most six rows per webinar, never a scan of sessions. A webinar without sessions has real zero counts (the spec's
 * "notStarted" example) and no update times.
 */
import { sql, type Kysely } from "kysely";
import type { PlaybackMode, WatchOverview, WatchStats } from "@org/webinar-types";
import type { Database, WatchScope } from "../db/schema";
import { rfc3339 } from "../http/rfc3339";
import { overviewDataState } from "./data-state";
import type { WatchedWebinar } from "./webinar-state";

interface TotalsRow {
  scope: WatchScope;
  kind: "REGISTERED" | "ANONYMOUS";
  viewer_count: number;
  session_count: number;
  watch_seconds: number;
  updated_at: Date;
}

function readTotals(db: Kysely<Database>, webinarId: string): Promise<TotalsRow[]> {
  return (
    db
      .selectFrom("watch_totals")
      // A cast the builder cannot say: the bigint sum arrives as a number, not a string.
      .select([
        "scope",
        "kind",
        "viewer_count",
        "session_count",
        sql<number>`watch_seconds::float8`.as("watch_seconds"),
        "updated_at",
      ])
      .where("webinar_id", "=", webinarId)
      .execute() as Promise<TotalsRow[]>
  );
}

const ZERO: WatchStats = { viewerCount: 0, sessionCount: 0, watchSeconds: 0 };

function add(a: WatchStats, b: WatchStats): WatchStats {
  return {
    viewerCount: a.viewerCount + b.viewerCount,
    sessionCount: a.sessionCount + b.sessionCount,
    watchSeconds: a.watchSeconds + b.watchSeconds,
  };
}

const millis = (time: Date | string | null | undefined): number | undefined =>
  time === null || time === undefined ? undefined : new Date(time).getTime();

function latest(...times: (number | undefined)[]): number | undefined {
  const values = times.filter((time): time is number => time !== undefined);
  return values.length === 0 ? undefined : Math.max(...values);
}

export async function readOverview(
  db: Kysely<Database>,
  webinar: WatchedWebinar,
  ticketCode: string,
  mode: PlaybackMode,
): Promise<WatchOverview> {
  const rows = await readTotals(db, webinar.id);
  const stats = (scope: WatchScope, kind: TotalsRow["kind"]): WatchStats => {
    const row = rows.find((candidate) => candidate.scope === scope && candidate.kind === kind);
    return row === undefined
      ? ZERO
      : { viewerCount: row.viewer_count, sessionCount: row.session_count, watchSeconds: Number(row.watch_seconds) };
  };
  const updated = (scope: WatchScope) =>
    latest(...rows.filter((row) => row.scope === scope).map((row) => millis(row.updated_at)));
  const registered = stats(mode, "REGISTERED");
  const anonymous = stats(mode, "ANONYMOUS");
  const liveSeconds = add(stats("LIVE", "REGISTERED"), stats("LIVE", "ANONYMOUS")).watchSeconds;
  const replay = add(stats("REPLAY", "REGISTERED"), stats("REPLAY", "ANONYMOUS"));
  // Finalizing the live data is an update of the live summary too.
  const liveUpdatedAt = mode === "REPLAY" ? undefined : latest(updated("LIVE"), millis(webinar.liveFinalizedAt));
  const replayUpdatedAt = mode === "LIVE" ? undefined : updated("REPLAY");
  const dataUpdatedAt = latest(liveUpdatedAt, replayUpdatedAt);
  return {
    ticketCode,
    dataState: overviewDataState(mode, webinar, replay.sessionCount > 0),
    ...(dataUpdatedAt === undefined ? {} : { dataUpdatedAt: rfc3339(dataUpdatedAt) }),
    ...(liveUpdatedAt === undefined ? {} : { liveDataUpdatedAt: rfc3339(liveUpdatedAt) }),
    ...(replayUpdatedAt === undefined ? {} : { replayDataUpdatedAt: rfc3339(replayUpdatedAt) }),
    all: add(registered, anonymous),
    registered,
    anonymous,
    liveWatchSeconds: mode === "REPLAY" ? 0 : liveSeconds,
    replayWatchSeconds: mode === "LIVE" ? 0 : replay.watchSeconds,
  };
}
