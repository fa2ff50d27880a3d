/**
 * A minimal watch page at `/w/{ticketCode}`: it takes the ticket from the URL fragment, removes it from the
 * address bar and history at once, and exchanges it at `POST /w/api/session`. Playback itself is not part of
 * this server; the page shows who is signed in. No referrer is sent and nothing is cached, so the ticket never
 * leaves the browser except in that one exchange.
 */

const SCRIPT = `
const ticketCode = location.pathname.split("/").pop();
const match = /(?:^|&)login_ticket=([^&]+)/.exec(location.hash.slice(1));
history.replaceState(null, "", location.pathname);
const status = document.getElementById("status");
if (!match) {
  status.textContent = "Open this page with the login link you were given.";
} else {
  fetch("/w/api/session", { method: "POST", headers: { "content-type": "application/json" }, credentials: "same-origin",
    body: JSON.stringify({ ticketCode, loginTicket: decodeURIComponent(match[1]) }) })
    .then(async (response) => {
      const body = await response.json().catch(() => ({}));
      status.textContent = response.ok ? "Signed in as viewer " + body.uid + "." : "This login link is invalid, expired or already used (" + (body.error && body.error.code) + ").";
    })
    .catch(() => { status.textContent = "The watch service is unreachable; try again."; });
}`;

/** SHA-256 of the inline script, for the Content-Security-Policy. */
async function scriptHash(): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(SCRIPT));
  return Buffer.from(digest).toString("base64");
}

const hash = scriptHash();

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

export async function watchPage(ticketCode: string): Promise<Response> {
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Webinar ${escapeHtml(ticketCode)}</title></head>
<body><h1>Webinar ${escapeHtml(ticketCode)}</h1><p id="status">Signing in…</p><script>${SCRIPT}</script></body></html>`;
  return new Response(html, {
    status: 200,
    headers: {
      "Content-Type": "text/html; charset=utf-8",
      "Cache-Control": "no-store",
      "Referrer-Policy": "no-referrer",
      "X-Content-Type-Options": "nosniff",
      "Content-Security-Policy": `default-src 'none'; script-src 'sha256-${await hash}'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
    },
  });
}
