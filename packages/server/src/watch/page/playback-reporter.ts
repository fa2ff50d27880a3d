/**
 * Tells the server what the player really does, so it credits only watched time (watch-openapi.yaml, tag
 * Playback): a session is started on the first real play in a mode, with the protocol really played, a heartbeat `playing: true` goes out every
 * interval while playing and when playing stops (pause, hidden, ended, stalled, offline), and a heartbeat
 * `playing: false` when it resumes, so the paused stretch is never credited. Going offline loses the time since
 * the last heartbeat (at most one interval): the beat that would credit it cannot reach the server.
 *
 * Requests go out one after the other, in the order of the events that caused them.
 */
import { type PlaybackMode, sendHeartbeat, startPlayback, stopPlayback } from "./api";
import type { Protocol } from "./sources";

export interface PlayerView {
  /** Whether the video is really playing in a visible, online page. */
  reallyPlaying(): boolean;
  /** The mode a start is accepted for now, or null. */
  currentMode(): PlaybackMode | null;
  /** How the video is played (sources.ts): recorded with the session, as played. */
  protocol(): Protocol | null;
  /** A start was refused: the webinar's state changed, read it again. */
  stateChanged(): void;
}

export interface PlaybackReporter {
  /** Brings the server's view in line with the player's (after any player, visibility or network event). */
  sync(): void;
  /** Stops the session, if one is open (a change of mode, a session that ended). */
  stop(): void;
  /** Starts the heartbeat ticker at the interval the server announced. */
  startTicker(intervalSeconds: number): void;
}

/** The device class recorded with the session: a coarse pointer is a phone or a tablet, anything else a desktop. */
function deviceType(): "DESKTOP" | "MOBILE" | "TABLET" {
  if (!window.matchMedia?.("(pointer: coarse)").matches) return "DESKTOP";
  return Math.min(screen.width, screen.height) < 600 ? "MOBILE" : "TABLET";
}

export function createPlaybackReporter(player: PlayerView): PlaybackReporter {
  let playbackId: string | null = null;
  let crediting = false;
  let intervalSeconds = 0;
  let ticker: number | undefined;
  let queue: Promise<unknown> = Promise.resolve();

  const enqueue = (task: () => Promise<unknown>) => {
    queue = queue.then(task, task).catch(() => undefined);
  };

  const startTicker = (seconds: number) => {
    intervalSeconds = seconds;
    if (ticker !== undefined) clearInterval(ticker);
    ticker = window.setInterval(() => enqueue(() => sync(true)), seconds * 1000);
  };

  async function startSession(): Promise<void> {
    const mode = player.currentMode();
    const protocol = player.protocol();
    if (mode === null || protocol === null) return;
    const answer = await startPlayback({ mode, protocol, deviceType: deviceType() });
    if (answer.ok && player.currentMode() === mode) {
      playbackId = answer.body.playbackId;
      crediting = true;
      if (answer.body.heartbeatIntervalSeconds !== intervalSeconds) startTicker(answer.body.heartbeatIntervalSeconds);
    } else if (answer.status === 409) {
      player.stateChanged();
    }
  }

  async function beat(playing: boolean): Promise<void> {
    const id = playbackId;
    if (id === null) return;
    const answer = await sendHeartbeat({ playbackId: id, playing });
    const gone = answer.ok ? answer.body.ended : answer.status === 404 || answer.status === 401;
    if (gone && playbackId === id) {
      playbackId = null;
      crediting = false;
    }
  }

  /** On a tick of the interval a playing session reports; otherwise only a change of playing is reported. */
  async function sync(tick: boolean): Promise<void> {
    const playing = player.reallyPlaying();
    if (playing && playbackId === null) return startSession();
    if (playbackId === null) return;
    if (playing && !crediting) {
      crediting = true;
      return beat(false);
    }
    if (!playing && crediting) {
      crediting = false;
      return beat(true);
    }
    if (playing && tick) return beat(true);
  }

  function stop(): void {
    const id = playbackId;
    const playing = crediting;
    playbackId = null;
    crediting = false;
    if (id !== null) enqueue(() => stopPlayback({ playbackId: id, playing }));
  }

  return { sync: () => enqueue(() => sync(false)), stop, startTicker };
}
