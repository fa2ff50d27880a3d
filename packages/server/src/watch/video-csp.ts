/**
 * What the watch page's Content-Security-Policy allows for a webinar's video URLs, and nothing more:
 *
 * | Video URL | `media-src` | `connect-src` |
 * |---|---|---|
 * | a plain file (MP4, WebM) | its origin | – |
 * | HLS (`.m3u8`) | its origin (native HLS) and `blob:` (hls.js hands the element a Media Source object URL) | its origin (hls.js fetches the playlists and segments) |
 *
 * Both always allow `'self'` (the sample video, the page's API). An HLS stream's segments are fetched from the
 * playlist's origin: segments on another host are refused, which keeps the page's requests to the hosts the
 * merchant set.
 */
import { HLS_PATH } from "./page/sources";

const SAFE_ORIGIN = /^https?:\/\/[A-Za-z0-9.:[\]-]+$/;

export interface VideoSourcePolicy {
  mediaSrc: string;
  connectSrc: string;
}

export function videoSourcePolicy(urls: readonly (string | null | undefined)[]): VideoSourcePolicy {
  const media = new Set(["'self'"]);
  const connect = new Set(["'self'"]);
  let blob = false;
  for (const url of urls) {
    if (url === null || url === undefined) continue;
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      // Not a URL (the admin API accepts only http(s) URLs): nothing to allow.
      continue;
    }
    if (!SAFE_ORIGIN.test(parsed.origin)) continue;
    media.add(parsed.origin);
    if (HLS_PATH.test(parsed.pathname)) {
      connect.add(parsed.origin);
      blob = true;
    }
  }
  if (blob) media.add("blob:");
  return { mediaSrc: [...media].join(" "), connectSrc: [...connect].join(" ") };
}
