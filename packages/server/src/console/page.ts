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
 * this origin. Files are read once and kept in memory: the app is a few hundred kilobytes.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { extname, join } from "node:path";
import type { Context, Hono } from "hono";
import type { AppEnv } from "../http/app-env";
import type { AppServices } from "../services";
import { findPackageFile } from "../watch/package-file";

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

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".woff2": "font/woff2",
  ".json": "application/json; charset=utf-8",
  ".map": "application/json; charset=utf-8",
  ".txt": "text/plain; charset=utf-8",
};

interface ConsoleFiles {
  page: Buffer;
  assets: Map<string, Buffer>;
}

/** The built app from `dist/console/`, or undefined when the package was built without it. */
function loadConsoleFiles(): ConsoleFiles | undefined {
  const folder = findPackageFile("dist/console/index.html") === undefined ? undefined : findPackageFile("dist/console");
  if (folder === undefined) return undefined;
  const assets = new Map<string, Buffer>();
  const assetFolder = join(folder, "assets");
  const walk = (dir: string, prefix: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path, `${prefix}${name}/`);
      else assets.set(`${prefix}${name}`, readFileSync(path));
    }
  };
  if (findPackageFile("dist/console/assets") !== undefined) walk(assetFolder, "");
  return { page: readFileSync(join(folder, "index.html")), assets };
}

/** Registers the console's page and files on `app` (after the API's routes). */
export function serveConsolePages(app: Hono<AppEnv>, _services: AppServices): void {
  let files: ConsoleFiles | undefined;
  const current = () => {
    files ??= loadConsoleFiles();
    return files;
  };
  app.get("/console/assets/*", (c) => {
    const name = c.req.path.slice("/console/assets/".length);
    const body = current()?.assets.get(name);
    if (body === undefined) return c.text("not found", 404, PAGE_HEADERS);
    return c.body(new Uint8Array(body), 200, {
      ...PAGE_HEADERS,
      "Content-Type": CONTENT_TYPES[extname(name)] ?? "application/octet-stream",
      "Cache-Control": "public, max-age=31536000, immutable",
    });
  });
  const page = (c: Context<AppEnv>) => {
    const built = current();
    if (built === undefined)
      return c.text(
        "the console was not built into this server package (build @org/webinar-console)",
        503,
        PAGE_HEADERS,
      );
    return c.body(new Uint8Array(built.page), 200, {
      ...PAGE_HEADERS,
      "Content-Type": "text/html; charset=utf-8",
      "Cache-Control": "no-cache",
    });
  };
  app.get("/console", (c) => c.redirect("/console/", 308));
  app.get("/console/", page);
  app.get("/console/*", page);
}
