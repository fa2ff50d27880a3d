/**
 * The watch page's script, served at `/w/assets/watch.js` (bundled by the build from this folder; no framework):
 *
 * - speaks the browser's language (i18n/: English or Simplified Chinese, by `navigator.languages`);
 * - takes the login ticket from the URL fragment and removes it from the address bar and history at once, then
 *   exchanges it at `POST /w/api/session`; a refused real ticket says why (used, expired, replaced);
 * - polls `GET /w/api/state` for the title, state, mode and video, so a live that starts or ends switches the page;
 * - plays the video by its type (sources.ts: HLS natively or through hls.js, plain files natively) with the
 *   controls of controls.ts, and reconnects a live that stalls (reconnect.ts);
 * - reports playback through playback-reporter.ts, which credits time only while the video really plays in a
 *   visible, online page, with the protocol really played. A change of mode stops the session.
 */
import { exchangeLoginTicket, readState, type WatchState } from "./api";
import { createControls } from "./controls";
import type { MessageKey } from "./i18n/catalogue";
import { languageOf } from "./i18n/languages";
import { createTranslator } from "./i18n/translator";
import { createPlaybackReporter } from "./playback-reporter";
import { watchForStalls } from "./reconnect";
import { type AttachedSource, attachSource } from "./sources";

/** How often the page reads the state again. */
const STATE_POLL_MS = 5000;
/** The sample video stands in for a live stream: it loops while live. */
const SAMPLE_VIDEO = "/w/assets/sample.webm";

const language = languageOf(navigator.languages?.length ? navigator.languages : [navigator.language]);
const t = createTranslator(language);
document.documentElement.lang = language;
// The server rendered the first texts in the language of the request's Accept-Language: the page's own choice wins.
for (const node of document.querySelectorAll<HTMLElement>("[data-message]"))
  node.textContent = t(node.dataset.message as MessageKey);
for (const node of document.querySelectorAll<HTMLElement>("[data-label]"))
  node.setAttribute("aria-label", t(node.dataset.label as MessageKey));

function element<T extends HTMLElement>(id: string): T {
  const found = document.getElementById(id);
  if (found === null) throw new Error(`the watch page has no #${id}`);
  return found as T;
}

const title = element<HTMLHeadingElement>("title");
const stateText = element<HTMLParagraphElement>("state");
const message = element<HTMLParagraphElement>("message");
const player = element<HTMLElement>("player");
const video = element<HTMLVideoElement>("video");

const ticketCode = decodeURIComponent(location.pathname.split("/").pop() ?? "");
const loginTicket = new URLSearchParams(location.hash.slice(1)).get("login_ticket");
history.replaceState(null, "", location.pathname);

// The page's own state: this script is the page, loaded once per page load.
let current: WatchState | null = null;
let poller: number | undefined;
let source: AttachedSource | null = null;
/** Counts source changes, so a source still loading when another replaced it is dropped. */
let sourceGeneration = 0;
/** The viewer pressed Play (and not Pause since): a stalled live is reconnected while this holds. */
let wantsPlay = false;
/** A source is being attached (hls.js may still be downloading): a Play pressed now plays once it is. */
let attaching = false;

const reporter = createPlaybackReporter({
  reallyPlaying: () =>
    !video.paused &&
    !video.ended &&
    video.readyState >= HTMLMediaElement.HAVE_FUTURE_DATA &&
    document.visibilityState === "visible" &&
    navigator.onLine,
  currentMode: () => current?.mode ?? null,
  protocol: () => source?.protocol ?? null,
  stateChanged: () => void refreshState(),
});

const controls = createControls(video, t, {
  togglePlay() {
    if (video.paused || video.ended) {
      wantsPlay = true;
      stalls.reset();
      void playVideo();
    } else {
      wantsPlay = false;
      video.pause();
    }
  },
  selectRendition: (index) => source?.selectRendition(index),
});

const stalls = watchForStalls({
  wantsLive: () => wantsPlay && current?.mode === "LIVE" && source !== null,
  currentTime: () => video.currentTime,
  showReconnecting: (attempts, offline) =>
    controls.setNotice(offline ? t("player.offline") : t("player.reconnecting", { attempts })),
  hideReconnecting: () => controls.setNotice(null),
  reload() {
    source?.reload();
    void playVideo();
  },
});

function showMessage(text: string): void {
  message.textContent = text;
  message.hidden = false;
}

async function playVideo(): Promise<void> {
  if (source === null) {
    if (!attaching) showMessage(t("player.unsupported"));
    return;
  }
  try {
    await video.play();
  } catch (error) {
    // A play() cut short by a new load (a reconnect, a new source) is not a failure; a refused source is.
    if (error instanceof DOMException && error.name === "NotSupportedError" && current?.mode !== "LIVE")
      showMessage(t("player.unsupported"));
  }
}

/** Plays the mode's video: the old source goes, the new one is attached by its type. */
async function switchSource(next: WatchState): Promise<void> {
  const generation = ++sourceGeneration;
  reporter.stop();
  wantsPlay = false;
  video.pause();
  source?.detach();
  source = null;
  controls.setRenditions([]);
  controls.setNotice(null);
  attaching = next.videoUrl !== null;
  if (next.videoUrl === null) return;
  video.loop = next.mode === "LIVE" && next.videoUrl === SAMPLE_VIDEO;
  const attached = await attachSource(video, next.videoUrl, {
    renditionsChanged: () => controls.setRenditions(source?.renditions() ?? []),
    failed: () => {
      if (current?.mode !== "LIVE") showMessage(t("player.unsupported"));
    },
  });
  if (generation !== sourceGeneration) {
    attached?.detach();
    return;
  }
  attaching = false;
  source = attached;
  if (attached === null) showMessage(t("player.unsupported"));
  else if (wantsPlay) void playVideo();
}

function apply(next: WatchState): void {
  const before = current;
  current = next;
  // A webinar without a title (null or empty) is named by its code.
  const name = next.title || t("page.untitled", { ticketCode: next.ticketCode });
  title.textContent = name;
  document.title = name;
  stateText.textContent = t(`state.${next.state}`);
  player.hidden = false;
  if (before === null || before.mode !== next.mode || before.videoUrl !== next.videoUrl) {
    controls.setMode(next.mode);
    void switchSource(next);
  }
}

/** Without a session (never signed in, or it ended) the player goes away and the page says what to do. */
function signedOut(): void {
  reporter.stop();
  wantsPlay = false;
  video.pause();
  player.hidden = true;
  stateText.textContent = "";
  showMessage(t(current === null ? "session.none" : "session.ended"));
  current = null;
  clearInterval(poller);
  poller = undefined;
}

async function refreshState(): Promise<void> {
  try {
    const answer = await readState(ticketCode);
    if (answer.ok) apply(answer.body);
    else if (answer.status === 401) signedOut();
  } catch {
    // Offline: the next poll tries again.
  }
}

async function begin(): Promise<void> {
  await refreshState();
  if (current === null) return;
  poller = window.setInterval(() => void refreshState(), STATE_POLL_MS);
  reporter.startTicker(current.heartbeatIntervalSeconds);
}

async function signIn(ticket: string): Promise<void> {
  try {
    const answer = await exchangeLoginTicket({ ticketCode, loginTicket: ticket });
    if (answer.ok) return begin();
    stateText.textContent = "";
    if (answer.status !== 401) return showMessage(t("ticket.failed"));
    const reason = answer.error?.details?.reason;
    showMessage(t(reason === undefined ? "ticket.invalid" : `ticket.${reason}`));
  } catch {
    stateText.textContent = "";
    showMessage(t("ticket.unreachable"));
  }
}

for (const type of ["playing", "pause", "ended", "waiting", "stalled", "error"]) {
  video.addEventListener(type, () => reporter.sync());
}
video.addEventListener("playing", () => controls.setNotice(null));
document.addEventListener("visibilitychange", () => {
  reporter.sync();
  if (document.visibilityState === "visible" && current !== null) void refreshState();
});
// A login link opened over this page (same path, new fragment) is a new page load, not a fragment change.
window.addEventListener("hashchange", () => {
  if (/login_ticket=/.test(location.hash)) location.reload();
});
window.addEventListener("online", () => {
  reporter.sync();
  stalls.retryNow();
});
window.addEventListener("offline", () => reporter.sync());

void (loginTicket === null ? begin() : signIn(loginTicket));
