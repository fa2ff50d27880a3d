/**
 * Reads a V8 CPU profile (`node --cpu-prof` writes one `.cpuprofile` when the process exits) and tells where a
 * process spent its busy time between two moments: the top entries by self time, each a function with its file
 * and line, as a share of the busy time (every sample but `(idle)`). Locations in a bundle with a source map
 * beside it (the server's dist/*.js) are given in the source file, so they can be looked up.
 */
import { readFileSync } from "node:fs";
import { SourceMap } from "node:module";
import { dirname, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** The parts of V8's profile format used here (timestamps and deltas in microseconds). */
export interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number } }[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

export interface SelfTimeEntry {
  /** The function's name; `(anonymous)` for a nameless one; V8's own entries such as `(garbage collector)`. */
  functionName: string;
  /** `file:line` (1-based), or "" for V8's own entries. */
  location: string;
  selfMicros: number;
  /** Self time over the busy time of the window. */
  share: number;
}

export interface SelfTimeSummary {
  /** Sampled time in the window, and of it the time not idle. */
  windowMicros: number;
  busyMicros: number;
  entries: SelfTimeEntry[];
}

const IDLE = "(idle)";

/** Maps a location of a file to its source through the file's source map, when it has one. */
export type LocationMapper = (url: string, lineNumber: number, columnNumber: number) => string;

/** `url:line` as the profile gives it (0-based line there). */
export const plainLocation: LocationMapper = (url, lineNumber) => (url === "" ? "" : `${url}:${lineNumber + 1}`);

/**
 * The self time of each function in the samples taken in `[fromMicros, toMicros)`, largest first, at most
 * `limit` entries. A sample stands for the time until the next one (the last: until the profile's end), as
 * Chrome's profiler panel counts it.
 */
export function topSelfTime(
  profile: CpuProfile,
  window: { fromMicros: number; toMicros: number },
  limit: number,
  mapLocation: LocationMapper = plainLocation,
): SelfTimeSummary {
  const frames = new Map(profile.nodes.map((node) => [node.id, node.callFrame]));
  const selfByKey = new Map<string, { functionName: string; location: string; selfMicros: number }>();
  let windowMicros = 0;
  let busyMicros = 0;
  let time = profile.startTime;
  for (let index = 0; index < profile.samples.length; index += 1) {
    time += profile.timeDeltas[index] ?? 0;
    const next = index + 1 < profile.samples.length ? time + (profile.timeDeltas[index + 1] ?? 0) : profile.endTime;
    if (time < window.fromMicros || time >= window.toMicros) continue;
    const duration = Math.max(0, next - time);
    const frame = frames.get(profile.samples[index]!);
    if (frame === undefined) continue;
    windowMicros += duration;
    if (frame.functionName === IDLE) continue;
    busyMicros += duration;
    const functionName = frame.functionName === "" ? "(anonymous)" : frame.functionName;
    const location = mapLocation(frame.url, frame.lineNumber, frame.columnNumber);
    const key = `${functionName} ${location}`;
    const entry = selfByKey.get(key) ?? { functionName, location, selfMicros: 0 };
    entry.selfMicros += duration;
    selfByKey.set(key, entry);
  }
  const entries = [...selfByKey.values()]
    .sort((a, b) => b.selfMicros - a.selfMicros)
    .slice(0, limit)
    .map((entry) => ({ ...entry, share: busyMicros === 0 ? 0 : entry.selfMicros / busyMicros }));
  return { windowMicros, busyMicros, entries };
}

/** A path shorter to read: a package's file inside node_modules as `package/file`, others from `root`. */
function shortPath(path: string, root: string): string {
  const packageFile = path.lastIndexOf("/node_modules/");
  return packageFile >= 0 ? path.slice(packageFile + "/node_modules/".length) : relative(root, path);
}

/**
 * A {@link LocationMapper} for profiles of processes on this machine: `file://` locations through the file's
 * `.map` when there is one, shortened; `node:` locations as they are.
 */
export function sourceLocationMapper(root: string): LocationMapper {
  const maps = new Map<string, SourceMap | null>();
  const mapOf = (path: string): SourceMap | null => {
    if (!maps.has(path)) {
      let map: SourceMap | null = null;
      try {
        map = new SourceMap(JSON.parse(readFileSync(`${path}.map`, "utf8")));
      } catch {
        // No source map beside the file: its own lines are given.
      }
      maps.set(path, map);
    }
    return maps.get(path)!;
  };
  return (url, lineNumber, columnNumber) => {
    if (!url.startsWith("file://")) return plainLocation(url, lineNumber, columnNumber);
    const path = fileURLToPath(url);
    const entry = mapOf(path)?.findEntry(lineNumber, columnNumber);
    if (entry !== undefined && "originalSource" in entry) {
      // The map's sources are relative to the map's folder (or file:// URLs).
      const source = entry.originalSource.startsWith("file://")
        ? fileURLToPath(entry.originalSource)
        : resolve(dirname(path), entry.originalSource);
      return `${shortPath(source, root)}:${entry.originalLine + 1}`;
    }
    return `${shortPath(path, root)}:${lineNumber + 1}`;
  };
}

export function readCpuProfile(file: string): CpuProfile {
  return JSON.parse(readFileSync(file, "utf8")) as CpuProfile;
}
