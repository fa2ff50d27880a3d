/**
 * The player's controls around the `<video>` (every one a native button, range or select, so each is reachable by
 * Tab and works with the keyboard as the platform's own controls do):
 *
 * - Play/Pause, Mute/Unmute and a volume slider, Full screen (the player's section, so the controls stay; the
 *   element's own full screen on phones that only have that);
 * - a replay: a seek bar with the position, and speeds 1x, 1.25x, 1.5x and 2x;
 * - a live: a LIVE badge instead (a live cannot be seeked or sped up);
 * - a stream with several renditions: a quality menu, Auto first.
 *
 * Labels come from the page's language; the page decides what Play does (main.ts).
 */
import type { Translate } from "./i18n/translator";
import type { Rendition } from "./sources";

export const SPEEDS = [1, 1.25, 1.5, 2] as const;

export interface Controls {
  /** Shows the controls of a mode (null: nothing to play) and whether Play may be pressed. */
  setMode(mode: "LIVE" | "REPLAY" | null): void;
  /** Offers the renditions (fewer than two: no menu). */
  setRenditions(renditions: readonly Rendition[]): void;
  /** A line over the picture (reconnecting, offline), or none. */
  setNotice(text: string | null): void;
  /** Brings the buttons' labels in line with the video (after any of its events). */
  refresh(): void;
}

function element<T extends HTMLElement>(id: string): T {
  const found = document.getElementById(id);
  if (found === null) throw new Error(`the watch page has no #${id}`);
  return found as T;
}

/** `m:ss` or `h:mm:ss` of a number of seconds. */
export function clock(seconds: number): string {
  const whole = Number.isFinite(seconds) && seconds > 0 ? Math.floor(seconds) : 0;
  const [h, m, s] = [Math.floor(whole / 3600), Math.floor(whole / 60) % 60, whole % 60];
  const mm = h > 0 ? String(m).padStart(2, "0") : String(m);
  return `${h > 0 ? `${h}:` : ""}${mm}:${String(s).padStart(2, "0")}`;
}

/** Mute toggles (unmuting at volume 0 restores full volume); the slider sets the volume, 0 being muted. */
function wireSound(video: HTMLVideoElement, mute: HTMLButtonElement, volume: HTMLInputElement): void {
  mute.addEventListener("click", () => {
    if (video.muted || video.volume === 0) {
      video.muted = false;
      if (video.volume === 0) video.volume = 1;
    } else {
      video.muted = true;
    }
  });
  volume.addEventListener("input", () => {
    video.volume = Number(volume.value);
    video.muted = video.volume === 0;
  });
}

/** Fullscreen of the player, or of the video alone where only that is possible (iOS Safari). */
function wireFullscreen(button: HTMLButtonElement, player: HTMLElement, video: HTMLVideoElement): void {
  button.addEventListener("click", () => {
    if (document.fullscreenElement) void document.exitFullscreen();
    else if (player.requestFullscreen !== undefined) void player.requestFullscreen().catch(() => undefined);
    else (video as HTMLVideoElement & { webkitEnterFullscreen?: () => void }).webkitEnterFullscreen?.();
  });
}

export function createControls(
  video: HTMLVideoElement,
  t: Translate,
  actions: { togglePlay(): void; selectRendition(index: number): void },
): Controls {
  const player = element<HTMLElement>("player");
  const play = element<HTMLButtonElement>("play");
  const live = element<HTMLElement>("live");
  const seekGroup = element<HTMLElement>("seek-group");
  const seek = element<HTMLInputElement>("seek");
  const time = element<HTMLElement>("time");
  const mute = element<HTMLButtonElement>("mute");
  const volume = element<HTMLInputElement>("volume");
  const speedGroup = element<HTMLElement>("speed-group");
  const speed = element<HTMLSelectElement>("speed");
  const qualityGroup = element<HTMLElement>("quality-group");
  const quality = element<HTMLSelectElement>("quality");
  const fullscreen = element<HTMLButtonElement>("fullscreen");
  const notice = element<HTMLElement>("notice");
  let mode: "LIVE" | "REPLAY" | null = null;
  let seeking = false;

  const position = () => {
    const duration = Number.isFinite(video.duration) ? video.duration : 0;
    seek.max = String(duration);
    if (!seeking) seek.value = String(video.currentTime);
    const text = t("player.position", { current: clock(video.currentTime), duration: clock(duration) });
    seek.setAttribute("aria-valuetext", text);
    time.textContent = `${clock(video.currentTime)} / ${clock(duration)}`;
  };

  const refresh = () => {
    play.textContent = t(video.paused || video.ended ? "player.play" : "player.pause");
    mute.textContent = t(video.muted || video.volume === 0 ? "player.unmute" : "player.mute");
    volume.value = String(video.muted ? 0 : video.volume);
    fullscreen.textContent = t(document.fullscreenElement ? "player.exitFullscreen" : "player.fullscreen");
    position();
  };

  play.addEventListener("click", () => actions.togglePlay());
  wireSound(video, mute, volume);
  seek.addEventListener("input", () => {
    seeking = true;
    video.currentTime = Number(seek.value);
  });
  seek.addEventListener("change", () => {
    seeking = false;
  });
  for (const value of SPEEDS) speed.add(new Option(`${value}x`, String(value)));
  speed.addEventListener("change", () => {
    video.playbackRate = Number(speed.value);
  });
  quality.addEventListener("change", () => actions.selectRendition(Number(quality.value)));
  wireFullscreen(fullscreen, player, video);
  document.addEventListener("fullscreenchange", refresh);
  for (const type of ["play", "pause", "ended", "volumechange", "timeupdate", "durationchange", "loadedmetadata"])
    video.addEventListener(type, refresh);
  // A new source starts at normal speed; a replay keeps the speed the viewer chose.
  video.addEventListener("loadedmetadata", () => {
    video.playbackRate = mode === "REPLAY" ? Number(speed.value) : 1;
  });

  return {
    setMode(next) {
      mode = next;
      play.disabled = next === null;
      live.hidden = next !== "LIVE";
      seekGroup.hidden = next !== "REPLAY";
      speedGroup.hidden = next !== "REPLAY";
      if (next !== "REPLAY") speed.value = "1";
      refresh();
    },
    setRenditions(renditions) {
      const selected = quality.value;
      quality.replaceChildren(new Option(t("player.qualityAuto"), "-1"));
      const sorted = [...renditions].sort((a, b) => b.height - a.height || b.bitrate - a.bitrate);
      for (const { index, height, bitrate } of sorted) {
        const label =
          height > 0 ? t("player.rendition", { height }) : t("player.bitrate", { kbps: Math.round(bitrate / 1000) });
        quality.add(new Option(label, String(index)));
      }
      quality.value = [...quality.options].some((option) => option.value === selected) ? selected : "-1";
      qualityGroup.hidden = renditions.length < 2;
    },
    setNotice(text) {
      notice.textContent = text ?? "";
      notice.hidden = text === null;
    },
    refresh,
  };
}
