/**
 * hls.js for the watch page, served at `/w/assets/hls.js` from the installed `hls.js` package (its minified
 * classic script, which defines `window.Hls`). The page loads it only for an HLS source in a browser without
 * native HLS (page/hls-library.ts), so it is not part of the page's own script.
 */
import { readDependencyFile } from "../http/package-file";

// Module-level: the file is part of the installed package and never changes while the process runs.
let cached: Uint8Array<ArrayBuffer> | undefined;

export function hlsScriptResponse(): Response {
  cached ??= new Uint8Array(readDependencyFile("hls.js/dist/hls.min.js"));
  return new Response(cached, {
    headers: {
      "Content-Type": "text/javascript; charset=utf-8",
      // The same bytes until the server is upgraded: caching them spares a viewer's reloads 600 KB.
      "Cache-Control": "public, max-age=3600",
    },
  });
}
