/**
 * The watch page at `/w/{ticketCode}` (the `loginUrl` of issueLoginTicket): plain HTML whose style and script are
 * same-origin files (watch/page-style.ts, and the script of watch/page/ as the build bundled it). Its first texts are
 * in the language `Accept-Language` asks for (English or Simplified Chinese, the page's own catalogues); the script
 * then speaks the browser's language.
 *
 * The Content-Security-Policy allows this origin and, for the webinar's own video URLs, exactly what playing them
 * needs (video-csp.ts), so the page makes no request to any other host. No referrer is sent, so the login ticket in
 * the URL fragment never leaves the browser except in the exchange.
 */
import type { WebinarDirectory } from "../webinars/webinar-directory";
import type { MessageKey } from "./page/i18n/catalogue";
import { acceptedLanguages, type Language, LANGUAGES, languageOf } from "./page/i18n/languages";
import { videoSourcePolicy } from "./video-csp";

const escapeHtml = (text: string) => text.replace(/[&<>"]/g, (character) => `&#${character.charCodeAt(0)};`);

/** The page in `language`: its static texts are catalogue messages without values, marked for the script. */
function html(language: Language): string {
  const message = (key: MessageKey) => escapeHtml(LANGUAGES[language][key]);
  const text = (key: MessageKey) => `data-message="${key}">${message(key)}`;
  const label = (key: MessageKey) => `data-label="${key}" aria-label="${message(key)}"`;
  return `<!doctype html>
<html lang="${language}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${message("page.title")}</title>
<link rel="stylesheet" href="/w/assets/watch.css">
<script src="/w/assets/watch.js" defer></script>
</head>
<body>
<main>
<h1 id="title" ${text("page.title")}</h1>
<p id="state" role="status" ${text("page.signingIn")}</p>
<p id="message" role="alert" hidden></p>
<section id="player" ${label("player.region")} hidden>
<div class="stage">
<video id="video" playsinline preload="metadata"></video>
<p id="notice" class="notice" aria-live="polite" hidden></p>
</div>
<div class="controls" role="group" ${label("player.controls")}>
<button id="play" type="button" disabled ${text("player.play")}</button>
<span id="live" class="badge" hidden ${text("player.live")}</span>
<span id="seek-group" class="seek" hidden><input id="seek" type="range" min="0" max="0" step="any" value="0" ${label("player.seek")}><span id="time" class="time">0:00 / 0:00</span></span>
<button id="mute" type="button" ${text("player.mute")}</button>
<input id="volume" class="volume" type="range" min="0" max="1" step="0.05" value="1" ${label("player.volume")}>
<label id="speed-group" hidden><span ${text("player.speed")}</span> <select id="speed"></select></label>
<label id="quality-group" hidden><span ${text("player.quality")}</span> <select id="quality"></select></label>
<button id="fullscreen" type="button" ${text("player.fullscreen")}</button>
</div>
</section>
</main>
</body>
</html>
`;
}

const PAGES = { en: html("en"), "zh-CN": html("zh-CN") } as const satisfies Record<Language, string>;

export async function watchPage(
  webinars: WebinarDirectory,
  ticketCode: string,
  acceptLanguage: string | undefined,
): Promise<Response> {
  const webinar = await webinars.byTicketCode(ticketCode);
  const video = videoSourcePolicy([webinar?.liveVideoUrl, webinar?.replayVideoUrl]);
  const language = languageOf(acceptedLanguages(acceptLanguage));
  return new Response(PAGES[language], {
    status: 200,
    headers: {
      "Content-Type": "text/html; charset=utf-8",
      "Content-Language": language,
      Vary: "Accept-Language",
      "Referrer-Policy": "no-referrer",
      "Content-Security-Policy": `default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; media-src ${video.mediaSrc}; connect-src ${video.connectSrc}; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
    },
  });
}
