/** The watch page's style sheet, served at `/w/assets/watch.css`: readable from 360 px wide, visible focus. */
export const PAGE_STYLE = `*, *::before, *::after { box-sizing: border-box; }
html { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; line-height: 1.5; color: #1a1a1a; background: #fafafa; }
body { margin: 0; }
main { max-width: 960px; margin: 0 auto; padding: 16px; }
h1 { font-size: 1.5rem; margin: 0 0 8px; overflow-wrap: anywhere; }
#state { margin: 0 0 12px; font-weight: 600; }
#message { margin: 0 0 12px; padding: 12px; border: 2px solid #b42318; border-radius: 6px; background: #fff4f2; }
video { display: block; width: 100%; max-width: 100%; height: auto; aspect-ratio: 16 / 9; background: #000; border-radius: 6px; }
.controls { display: flex; flex-wrap: wrap; gap: 12px; align-items: center; margin-top: 12px; }
button { font: inherit; font-weight: 600; min-width: 96px; min-height: 44px; padding: 8px 20px; border: 0; border-radius: 6px;
  color: #fff; background: #1d4ed8; cursor: pointer; }
button:hover { background: #1e40af; }
button:disabled { color: #555; background: #d4d4d4; cursor: not-allowed; }
button:focus-visible { outline: 3px solid #f59e0b; outline-offset: 3px; }
@media (max-width: 480px) { main { padding: 12px; } h1 { font-size: 1.25rem; } button { width: 100%; } }
`;
