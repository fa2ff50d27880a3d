/**
 * Keeps a live stream going: while the viewer wants the live to play and its picture has not moved for
 * STALL_SECONDS (a segment that does not come, a playlist the edge answers 404, a lost connection), the page says
 * it is reconnecting and loads the stream again, after 2, 4, 8 … at most MAX_BACKOFF_SECONDS, until it plays. A
 * replay is not reloaded: the browser's own buffering resumes it where it was.
 *
 * The check is a one-second poll of `currentTime` rather than the element's events: a stalled live stream does not
 * always say so (`waiting` may never come when the buffer simply stops growing).
 */
export const STALL_SECONDS = 5;
const MAX_BACKOFF_SECONDS = 16;

export interface StallView {
  /** Whether the viewer wants the video to play now (pressed Play, not Pause) in a live. */
  wantsLive(): boolean;
  currentTime(): number;
  /** The stream stalled: say so (attempts so far, and whether the browser is offline). */
  showReconnecting(attempts: number, offline: boolean): void;
  /** The stream moves again, or the viewer no longer wants it. */
  hideReconnecting(): void;
  /** Loads the stream again and plays it. */
  reload(): void;
}

export interface StallWatch {
  /** Starts watching from now (a new source, or Play pressed). */
  reset(): void;
  /** Tries again at once (the browser came back online). */
  retryNow(): void;
}

export function watchForStalls(view: StallView): StallWatch {
  let lastTime = view.currentTime();
  let stillSeconds = 0;
  let attempts = 0;
  let nextAttemptAt = STALL_SECONDS;
  let showing = false;

  const reset = () => {
    lastTime = view.currentTime();
    stillSeconds = 0;
    attempts = 0;
    nextAttemptAt = STALL_SECONDS;
    if (showing) view.hideReconnecting();
    showing = false;
  };

  /** Says how many attempts were made before this one, then makes it. */
  const attempt = () => {
    showing = true;
    view.showReconnecting(attempts, !navigator.onLine);
    attempts += 1;
    nextAttemptAt = stillSeconds + Math.min(MAX_BACKOFF_SECONDS, 2 ** attempts);
    view.reload();
  };

  window.setInterval(() => {
    const time = view.currentTime();
    // Moving: a second of play advanced the picture by about a second; a jump (a reload, the live edge) is not.
    const moved = time > lastTime && time - lastTime <= 3;
    lastTime = time;
    if (!view.wantsLive() || moved) {
      if (stillSeconds > 0 || showing) reset();
      return;
    }
    stillSeconds += 1;
    if (stillSeconds >= nextAttemptAt) attempt();
  }, 1000);

  return {
    reset,
    retryNow() {
      if (showing) attempt();
    },
  };
}
