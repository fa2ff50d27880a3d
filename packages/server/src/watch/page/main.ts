/**
 * The watch page's script, served at `/w/assets/watch.js` (bundled by the build from this folder; no framework):
 *
 * - takes the login ticket from the URL fragment and removes it from the address bar and history at once, then
 *   exchanges it at `POST /w/api/session`; a refused real ticket says why (used, expired, replaced);
 * - polls `GET /w/api/state` for the title, state, mode and video, so a live that starts or ends switches the page;
 * - reports playback through playback-reporter.ts, which credits time only while the video really plays in a
 *   visible, online page. A change of mode stops the session.
 */
import { exchangeLoginTicket, readState, type WatchState } from "./api";
import { createPlaybackReporter } from "./playback-reporter";

const STATE_TEXT: Record<WatchState["state"], string> = {
  SCHEDULED: "Scheduled: the live has not started yet. This page switches to the video when it starts.",
  LIVE: "Live now",
  REPLAY: "The live has ended. Watch the replay.",
  ENDED: "The live has ended. There is no replay.",
  CANCELLED: "This webinar was cancelled.",
};
const REFUSED_TICKET_TEXT = {
  USED: "This link has already been used.",
  EXPIRED: "This link has expired.",
  SUPERSEDED: "This link was replaced by a newer one.",
} as const;
/** How often the page reads the state again. */
const STATE_POLL_MS = 5000;
/** The sample video stands in for a live stream: it loops while live. */
const SAMPLE_VIDEO = "/w/assets/sample.webm";

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
const button = element<HTMLButtonElement>("play");

const ticketCode = decodeURIComponent(location.pathname.split("/").pop() ?? "");
const loginTicket = new URLSearchParams(location.hash.slice(1)).get("login_ticket");
history.replaceState(null, "", location.pathname);

// The page's own state: this script is the page, loaded once per page load.
let current: WatchState | null = null;
let poller: number | undefined;

const reporter = createPlaybackReporter({
  reallyPlaying: () =>
    !video.paused &&
    !video.ended &&
    video.readyState >= HTMLMediaElement.HAVE_FUTURE_DATA &&
    document.visibilityState === "visible" &&
    navigator.onLine,
  currentMode: () => current?.mode ?? null,
  stateChanged: () => void refreshState(),
});

function showMessage(text: string): void {
  message.textContent = text;
  message.hidden = false;
}

function updateButton(): void {
  button.textContent = video.paused || video.ended ? "Play" : "Pause";
}

function apply(next: WatchState): void {
  const before = current;
  current = next;
  // A webinar without a title (null or empty) is named by its code.
  const name = next.title || `Webinar ${next.ticketCode}`;
  title.textContent = name;
  document.title = name;
  stateText.textContent = STATE_TEXT[next.state];
  player.hidden = false;
  if (before === null || before.mode !== next.mode || before.videoUrl !== next.videoUrl) {
    reporter.stop();
    video.pause();
    if (next.videoUrl === null) video.removeAttribute("src");
    else video.src = next.videoUrl;
    video.loop = next.mode === "LIVE" && next.videoUrl === SAMPLE_VIDEO;
    video.load();
  }
  button.disabled = next.mode === null;
  updateButton();
}

/** Without a session (never signed in, or it ended) the player goes away and the page says what to do. */
function signedOut(): void {
  reporter.stop();
  video.pause();
  player.hidden = true;
  stateText.textContent = "";
  showMessage(
    current === null
      ? "Open this page with the login link you were given."
      : "Your watch session has ended. Please ask for a new link.",
  );
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
    if (answer.status !== 401) return showMessage("Signing in failed. Please try again in a moment.");
    const reason = answer.error?.details?.reason;
    const why = reason === undefined ? "This link is not valid for this webinar." : REFUSED_TICKET_TEXT[reason];
    showMessage(`${why} Please ask for a new link.`);
  } catch {
    stateText.textContent = "";
    showMessage("The watch service cannot be reached. Check your connection and try again.");
  }
}

button.addEventListener("click", () => {
  if (video.paused || video.ended) {
    video.play().catch(() => showMessage("The video cannot be played in this browser."));
  } else {
    video.pause();
  }
});
for (const type of ["play", "pause", "ended"]) video.addEventListener(type, updateButton);
for (const type of ["playing", "pause", "ended", "waiting", "stalled", "error"]) {
  video.addEventListener(type, () => reporter.sync());
}
document.addEventListener("visibilitychange", () => {
  reporter.sync();
  if (document.visibilityState === "visible" && current !== null) void refreshState();
});
// A login link opened over this page (same path, new fragment) is a new page load, not a fragment change.
window.addEventListener("hashchange", () => {
  if (/login_ticket=/.test(location.hash)) location.reload();
});
window.addEventListener("online", () => reporter.sync());
window.addEventListener("offline", () => reporter.sync());

void (loginTicket === null ? begin() : signIn(loginTicket));
