/**
 * The sample video the watch page plays for a webinar without a video URL: `assets/sample.webm` of this package
 * (made by scripts/record-sample-video.ts), served at `/w/assets/sample.webm` with byte ranges, so the browser
 * can seek (206 Partial Content).
 */
import { readPackageFile } from "../http/package-file";

export const SAMPLE_VIDEO_PATH = "/w/assets/sample.webm";

// Module-level: the file is part of the installed package and never changes while the process runs.
let cached: Uint8Array<ArrayBuffer> | undefined;

/** The sample video's bytes (read once). */
export function sampleVideo(): Uint8Array<ArrayBuffer> {
  cached ??= new Uint8Array(readPackageFile("assets/sample.webm", "record it with `pnpm record:sample-video`"));
  return cached;
}

/**
 * The answer for `bytes` of type `contentType` to a request with an optional `Range` header: 200 with the whole
 * body, 206 with one range (`bytes=a-b`, `bytes=a-`, `bytes=-n`), 416 for a range outside the body. A header this
 * does not understand (several ranges, other units) is ignored and gets the whole body, as HTTP lets a server do.
 */
export function rangeResponse(
  bytes: Uint8Array<ArrayBuffer>,
  contentType: string,
  range: string | undefined,
  method: string,
): Response {
  const size = bytes.length;
  const headers: Record<string, string> = { "Content-Type": contentType, "Accept-Ranges": "bytes" };
  const match = /^bytes=(\d*)-(\d*)$/.exec(range?.trim() ?? "");
  if (match === null || (match[1] === "" && match[2] === "")) {
    return new Response(method === "HEAD" ? null : bytes, {
      status: 200,
      headers: { ...headers, "Content-Length": String(size) },
    });
  }
  let start: number;
  let end: number;
  if (match[1] === "") {
    start = Math.max(0, size - Number(match[2]));
    end = size - 1;
  } else {
    start = Number(match[1]);
    end = match[2] === "" ? size - 1 : Math.min(Number(match[2]), size - 1);
  }
  if (start >= size || start > end || (match[1] === "" && Number(match[2]) === 0)) {
    return new Response(null, { status: 416, headers: { ...headers, "Content-Range": `bytes */${size}` } });
  }
  const part = bytes.subarray(start, end + 1);
  return new Response(method === "HEAD" ? null : part, {
    status: 206,
    headers: { ...headers, "Content-Range": `bytes ${start}-${end}/${size}`, "Content-Length": String(part.length) },
  });
}
