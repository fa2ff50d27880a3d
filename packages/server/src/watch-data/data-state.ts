/**
 * `dataState` of the overview (Data states) and the live-finalization gate of the detail query (queryViewerWatch), from
 * the webinar's live lifecycle (admin `live` and `finalize`).
 */
import type { DataState, PlaybackMode } from "@org/webinar-types";
import type { LiveStatus } from "../db/schema";

export interface LiveState {
  liveStatus: LiveStatus;
  liveStartedAt: Date | null;
  liveFinalizedAt: Date | null;
}

const ENDED: readonly LiveStatus[] = ["ENDED", "CANCELLED", "FAILED"];

/**
 * | query                     | live not ended (or not started) | ended/cancelled/failed, not finalized | finalized |
 * |---------------------------|---------------------------------|---------------------------------------|-----------|
 * | REPLAY                    | PROVISIONAL                     | PROVISIONAL                           | PROVISIONAL |
 * | ALL with replay data      | PROVISIONAL                     | PROVISIONAL                           | PROVISIONAL |
 * | LIVE, ALL without replay  | PROVISIONAL                     | FINALIZING                            | FINAL     |
 */
export function overviewDataState(mode: PlaybackMode, live: LiveState, hasReplayData: boolean): DataState {
  if (mode === "REPLAY" || (mode === "ALL" && hasReplayData)) return "PROVISIONAL";
  if (live.liveFinalizedAt !== null) return "FINAL";
  return ENDED.includes(live.liveStatus) ? "FINALIZING" : "PROVISIONAL";
}

/** queryViewerWatch: LIVE and ALL detail queries wait for final live data once the webinar has started. */
export function liveDataNotFinal(mode: PlaybackMode, live: LiveState): boolean {
  return mode !== "REPLAY" && live.liveStartedAt !== null && live.liveFinalizedAt === null;
}
