/**
 * The watch page at `/w/{ticketCode}` (the `loginUrl` of issueLoginTicket): plain HTML whose style and script are
 * same-origin files (watch/page-style.ts, and the script of watch/page/ as the build bundled it). The
 * Content-Security-Policy allows nothing but this origin, plus the origins of the webinar's own video URLs as media
 * sources, so the page makes no request to any other host. No referrer is sent, so the login ticket in the URL fragment never leaves the browser
 * except in the exchange.
 */
import type { WebinarDirectory } from "../webinars/webinar-directory";

const HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Webinar</title>
<link rel="stylesheet" href="/w/assets/watch.css">
<script src="/w/assets/watch.js" defer></script>
</head>
<body>
<main>
<h1 id="title">Webinar</h1>
<p id="state" role="status">Signing in…</p>
<p id="message" role="alert" hidden></p>
<section id="player" aria-label="Video" hidden>
<video id="video" playsinline preload="metadata"></video>
<div class="controls"><button id="play" type="button" disabled>Play</button></div>
</section>
</main>
</body>
</html>
`;

/**
 * The origins of the webinar's video URLs (for `media-src`); none for an unknown webinar or one without URLs. Read
 * from the webinar directory's memory, which a change of the URLs reaches in every process.
 */
async function videoOrigins(webinars: WebinarDirectory, ticketCode: string): Promise<string[]> {
  const webinar = await webinars.byTicketCode(ticketCode);
  const origins = new Set<string>();
  for (const url of [webinar?.liveVideoUrl, webinar?.replayVideoUrl]) {
    if (url === null || url === undefined) continue;
    try {
      const origin = new URL(url).origin;
      if (/^https?:\/\/[A-Za-z0-9.:[\]-]+$/.test(origin)) origins.add(origin);
    } catch {
      // Not a URL (the admin API accepts only http(s) URLs): nothing to allow.
    }
  }
  return [...origins];
}

export async function watchPage(webinars: WebinarDirectory, ticketCode: string): Promise<Response> {
  const media = ["'self'", ...(await videoOrigins(webinars, ticketCode))].join(" ");
  return new Response(HTML, {
    status: 200,
    headers: {
      "Content-Type": "text/html; charset=utf-8",
      "Referrer-Policy": "no-referrer",
      "Content-Security-Policy": `default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; media-src ${media}; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
    },
  });
}
