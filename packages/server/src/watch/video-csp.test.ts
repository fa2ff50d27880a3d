/**
 * The watch page's Content-Security-Policy for a webinar's video URLs (video-csp.ts): a plain file's origin as a
 * media source only; an HLS stream's origin as a media and a connect source, with `blob:` media for hls.js; nothing
 * for a missing URL or one that is not http(s).
 */
import { describe, expect, it } from "vitest";
import { videoSourcePolicy } from "./video-csp";

describe("the watch page's video sources", () => {
  it.each([
    ["no URL", [null, undefined], "'self'", "'self'"],
    ["a WebM file", ["https://video.example.com/live.webm", null], "'self' https://video.example.com", "'self'"],
    [
      "an HLS live",
      ["https://cdn.example.com/live/master.m3u8", null],
      "'self' https://cdn.example.com blob:",
      "'self' https://cdn.example.com",
    ],
    [
      "an HLS live and an MP4 replay",
      ["https://cdn.example.com/a.m3u8?token=1", "https://files.example.org/r.mp4"],
      "'self' https://cdn.example.com https://files.example.org blob:",
      "'self' https://cdn.example.com",
    ],
    ["not a URL", ["javascript:alert(1)", "not a url"], "'self'", "'self'"],
  ])("%s", (_case, urls, mediaSrc, connectSrc) => {
    expect(videoSourcePolicy(urls)).toEqual({ mediaSrc, connectSrc });
  });
});
