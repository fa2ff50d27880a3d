/**
 * The console's web app, built by the `@org/webinar-console` package and copied into this package's
 * `dist/console/` by its build (scripts/copy-console-app.ts), so a server installed from the registry serves it.
 *
 * - `/console/assets/<file>`: the built files, cached for a year (their names change with their content).
 * - `GET /console/` and every other path under `/console/` (not the API's): the page, `index.html`, so deep links
 *   (`/console/invite`, `/console/webinars/{ticketCode}`) work on a fresh load. Not cached, so a new build is
 *   picked up at once.
 *
 * Every answer carries a strict Content-Security-Policy: scripts, styles and everything else from this origin
 * only (no inline script), no framing (`frame-ancestors 'none'`), no plugins, and forms and base URLs pinned to
 * this origin. The files are served from disk by @hono/node-server's static file handler, which refuses paths that
 * climb out of the folder (`..`, encoded separators).
 */
import { serveStatic } from "@hono/node-server/serve-static";
import { dirname } from "node:path";
import type { Context, Hono, MiddlewareHandler } from "hono";
import type { AppEnv } from "../http/app-env";
import { findPackageFile } from "../http/package-file";

export const CONSOLE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join("; ");

const PAGE_HEADERS = {
  "Content-Security-Policy": CONSOLE_CSP,
  "X-Frame-Options": "DENY",
  "Referrer-Policy": "no-referrer",
  "X-Content-Type-Options": "nosniff",
};

/** Files named by their content: a new build names them anew, so a browser may keep them for a year. */
const IMMUTABLE = "public, max-age=31536000, immutable";

/** The page's headers on whatever `serve` answers (a file, or what comes next when it has none). */
function withPageHeaders(cacheControl: string, serve: MiddlewareHandler<AppEnv>): MiddlewareHandler<AppEnv> {
  return (c, next) => {
    for (const [name, value] of Object.entries(PAGE_HEADERS)) c.header(name, value);
    c.header("Cache-Control", cacheControl);
    return serve(c, next);
  };
}

/** Registers the console's page and files on `app` (after the API's routes). */
export function serveConsolePages(app: Hono<AppEnv>): void {
  app.get("/console", (c) => c.redirect("/console/", 308));
  const page = findPackageFile("dist/console/index.html");
  if (page === undefined) {
    const notBuilt = (c: Context<AppEnv>) =>
      c.text("the console was not built into this server package (build @org/webinar-console)", 503, PAGE_HEADERS);
    app.get("/console/*", notBuilt);
    return;
  }
  const assets = serveStatic<AppEnv>({
    root: dirname(page),
    rewriteRequestPath: (path) => path.slice("/console".length),
  });
  app.get("/console/assets/*", withPageHeaders(IMMUTABLE, assets), (c) =>
    c.text("not found", 404, { ...PAGE_HEADERS, "Cache-Control": "no-cache" }),
  );
  // Every other path is a page of the app (deep links work on a fresh load); not cached, so a new build shows at once.
  app.get("/console/*", withPageHeaders("no-cache", serveStatic<AppEnv>({ path: page })));
}
