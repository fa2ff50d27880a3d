/**
 * hls.js, loaded only when a page needs it: an HLS source in a browser without native HLS. The server serves the
 * library from its installed package at `/w/assets/hls.js` (a classic script that defines `window.Hls`), so a
 * page that plays a plain file, or plays HLS natively, never downloads it. Loaded once per page.
 */
import type Hls from "hls.js";

export const HLS_LIBRARY_PATH = "/w/assets/hls.js";

let loading: Promise<typeof Hls> | undefined;

export function loadHlsLibrary(): Promise<typeof Hls> {
  loading ??= new Promise<typeof Hls>((resolve, reject) => {
    const script = document.createElement("script");
    script.src = HLS_LIBRARY_PATH;
    script.async = true;
    script.addEventListener("load", () => {
      const library = (window as unknown as { Hls?: typeof Hls }).Hls;
      if (library === undefined) reject(new Error("hls.js did not define window.Hls"));
      else resolve(library);
    });
    script.addEventListener("error", () => reject(new Error("hls.js could not be loaded")));
    document.head.append(script);
  }).catch((error: unknown) => {
    // A failed load (offline) may be tried again by the next source.
    loading = undefined;
    throw error;
  });
  return loading;
}
