/**
 * The watch page's style sheet, served at `/w/assets/watch.css`: readable from 360 px wide with nothing scrolling
 * sideways (the controls wrap; the seek bar takes a row of its own on a phone), targets of at least 44 px, a
 * visible focus, and a full-screen player whose controls stay under the picture.
 */
export const PAGE_STYLE = `*, *::before, *::after { box-sizing: border-box; }
html { font-family: system-ui, -apple-system, "Segoe UI", Roboto, "PingFang SC", "Microsoft YaHei", "Noto Sans CJK SC", sans-serif; line-height: 1.5; color: #1a1a1a; background: #fafafa; }
body { margin: 0; }
main { max-width: 960px; margin: 0 auto; padding: 16px; }
h1 { font-size: 1.5rem; margin: 0 0 8px; overflow-wrap: anywhere; }
#state { margin: 0 0 12px; font-weight: 600; }
#message { margin: 0 0 12px; padding: 12px; border: 2px solid #b42318; border-radius: 6px; background: #fff4f2; }
.stage { position: relative; }
video { display: block; width: 100%; max-width: 100%; height: auto; aspect-ratio: 16 / 9; background: #000; border-radius: 6px; }
.notice { position: absolute; left: 12px; right: 12px; bottom: 12px; margin: 0; padding: 8px 12px; border-radius: 6px;
  color: #fff; background: rgba(0, 0, 0, 0.78); font-weight: 600; }
.controls { display: flex; flex-wrap: wrap; gap: 8px 12px; align-items: center; margin-top: 12px; }
.controls > * { min-width: 0; }
button { font: inherit; font-weight: 600; min-width: 96px; min-height: 44px; padding: 8px 16px; border: 0; border-radius: 6px;
  color: #fff; background: #1d4ed8; cursor: pointer; }
button:hover { background: #1e40af; }
button:disabled { color: #555; background: #d4d4d4; cursor: not-allowed; }
#mute, #fullscreen { color: #1d4ed8; background: #e8eefc; }
#mute:hover, #fullscreen:hover { background: #d5e0fa; }
button:focus-visible, input:focus-visible, select:focus-visible { outline: 3px solid #f59e0b; outline-offset: 3px; }
.badge { padding: 4px 10px; border-radius: 4px; color: #fff; background: #b42318; font-weight: 700; letter-spacing: 0.05em; }
.seek { display: flex; flex: 1 1 240px; gap: 8px; align-items: center; }
.seek input { flex: 1 1 auto; min-width: 0; }
.time { font-variant-numeric: tabular-nums; white-space: nowrap; }
input[type="range"] { min-height: 44px; accent-color: #1d4ed8; }
.volume { width: 112px; }
label { display: inline-flex; gap: 6px; align-items: center; font-weight: 600; }
select { font: inherit; min-height: 44px; padding: 6px 8px; border: 1px solid #767676; border-radius: 6px; background: #fff; color: #1a1a1a; }
[hidden] { display: none !important; }
#player:fullscreen { display: flex; flex-direction: column; justify-content: center; padding: 12px; background: #000; }
#player:fullscreen .stage { flex: 1 1 auto; min-height: 0; }
#player:fullscreen video { height: 100%; aspect-ratio: auto; object-fit: contain; }
#player:fullscreen .controls, #player:fullscreen label, #player:fullscreen .time { color: #fff; }
@media (max-width: 480px) {
  main { padding: 12px; }
  h1 { font-size: 1.25rem; }
  .seek { flex-basis: 100%; }
  #play { flex: 1 1 auto; }
  .volume { flex: 1 1 80px; width: auto; }
}
`;
