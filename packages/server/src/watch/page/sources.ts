/**
 * How the page plays a video URL, by its type, and the protocol it reports for it (startPlayback's `protocol`):
 *
 * | URL | Played by | Protocol |
 * |---|---|---|
 * | `.m3u8` (HLS), browser plays HLS itself | the `<video>` element | `HLS` |
 * | `.m3u8`, no native HLS but Media Source Extensions | hls.js (hls-library.ts), lazy-loaded | `HLS` |
 * | anything else (MP4, WebM) | the `<video>` element | `PROGRESSIVE` |
 *
 * Native HLS is what `canPlayType` says, so a browser without it (Firefox, Chromium on Linux told it has none)
 * gets hls.js. hls.js runs without a worker (no `blob:` scripts) and reports its renditions for the quality menu.
 */
import type Hls from "hls.js";
import { loadHlsLibrary } from "./hls-library";

export type Protocol = "HLS" | "PROGRESSIVE";

/** A rendition of a multi-bitrate stream, for the quality menu. */
export interface Rendition {
  /** The index the player selects it by. */
  index: number;
  height: number;
  bitrate: number;
}

export interface AttachedSource {
  readonly protocol: Protocol;
  /** The renditions the viewer may choose among (none: the player chooses alone). */
  renditions(): readonly Rendition[];
  /** Selects a rendition by its index, or -1 for automatic choice. */
  selectRendition(index: number): void;
  /** Loads the source again from the start of what is available (the live edge of a live stream). */
  reload(): void;
  /** Releases the source; the element is left empty. */
  detach(): void;
}

export interface SourceEvents {
  /** The renditions became known or changed. */
  renditionsChanged(): void;
  /** Loading failed for good (hls.js gave up): the page may reload it. */
  failed(): void;
}

const HLS_TYPE = "application/vnd.apple.mpegurl";

/** An HLS stream's URL: its path names a playlist. The server's Content-Security-Policy reads URLs the same way. */
export const HLS_PATH = /\.m3u8$/i;

export function isHlsUrl(url: string): boolean {
  return HLS_PATH.test(new URL(url, location.href).pathname);
}

/** Whether the browser plays HLS in `<video>` itself. */
export function hasNativeHls(video: HTMLVideoElement): boolean {
  return video.canPlayType(HLS_TYPE) !== "";
}

function hasMediaSource(): boolean {
  return "MediaSource" in window || "ManagedMediaSource" in window;
}

function nativeSource(video: HTMLVideoElement, url: string, protocol: Protocol): AttachedSource {
  const load = () => {
    video.src = url;
    video.load();
  };
  load();
  return {
    protocol,
    renditions: () => [],
    selectRendition: () => undefined,
    reload: load,
    detach() {
      video.removeAttribute("src");
      video.load();
    },
  };
}

function hlsJsSource(library: typeof Hls, video: HTMLVideoElement, url: string, events: SourceEvents): AttachedSource {
  let hls: Hls | undefined;
  let chosen = -1;
  const attach = () => {
    hls?.destroy();
    const instance = new library({ enableWorker: false, lowLatencyMode: false });
    hls = instance;
    instance.on(library.Events.MANIFEST_PARSED, () => {
      if (chosen !== -1 && chosen < instance.levels.length) instance.currentLevel = chosen;
      events.renditionsChanged();
    });
    instance.on(library.Events.ERROR, (_event, data) => {
      if (!data.fatal) return;
      if (data.type === library.ErrorTypes.MEDIA_ERROR) instance.recoverMediaError();
      else events.failed();
    });
    instance.loadSource(url);
    instance.attachMedia(video);
  };
  attach();
  return {
    protocol: "HLS",
    renditions: () =>
      (hls?.levels ?? []).map((level, index) => ({ index, height: level.height, bitrate: level.bitrate })),
    selectRendition(index) {
      chosen = index;
      if (hls !== undefined) hls.currentLevel = index;
    },
    reload: attach,
    detach() {
      hls?.destroy();
      hls = undefined;
    },
  };
}

/**
 * Plays `url` in `video` by its type; null when this browser cannot play it (HLS with neither native support nor
 * Media Source Extensions) or hls.js could not be loaded.
 */
export async function attachSource(
  video: HTMLVideoElement,
  url: string,
  events: SourceEvents,
): Promise<AttachedSource | null> {
  if (!isHlsUrl(url)) return nativeSource(video, url, "PROGRESSIVE");
  if (hasNativeHls(video)) return nativeSource(video, url, "HLS");
  if (!hasMediaSource()) return null;
  try {
    const library = await loadHlsLibrary();
    return library.isSupported() ? hlsJsSource(library, video, url, events) : null;
  } catch {
    return null;
  }
}
