/**
 * The enum values the CLI accepts and lists in its help. The spec's generated code has them as types only, so
 * they are written out here and checked against those types both ways: a value added to or removed from the spec
 * breaks the build until this list follows.
 */
import type { PlaybackMode, Sort } from "@org/webinar-types";

type Exhaustive<Union, List extends readonly Union[]> = [Exclude<Union, List[number]>] extends [never] ? List : never;

export const PLAYBACK_MODES = ["ALL", "LIVE", "REPLAY"] as const satisfies readonly PlaybackMode[];
export const SORTS = [
  "WATCH_SECONDS_DESC",
  "LAST_WATCHED_DESC",
  "FIRST_WATCHED_ASC",
] as const satisfies readonly Sort[];

const playbackModesAreComplete: Exhaustive<PlaybackMode, typeof PLAYBACK_MODES> = PLAYBACK_MODES;
const sortsAreComplete: Exhaustive<Sort, typeof SORTS> = SORTS;
void playbackModesAreComplete;
void sortsAreComplete;
