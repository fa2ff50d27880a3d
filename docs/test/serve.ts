/** A static file server for one folder on 127.0.0.1, for the browser tests. */
import { existsSync, readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { extname, relative, resolve, sep } from "node:path";

export async function serveDirectory(root: string): Promise<Server> {
  const types: Record<string, string> = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript",
    ".css": "text/css",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".json": "application/json",
    ".yaml": "application/yaml",
  };
  const server = createServer((request, response) => {
    const pathname = decodeURIComponent(new URL(request.url ?? "/", "http://127.0.0.1").pathname);
    const file = resolve(root, `.${pathname.endsWith("/") ? `${pathname}index.html` : pathname}`);
    // Serve that one folder only: no `..` escapes, no directory listings.
    const inside = file === root || file.startsWith(root + sep);
    if (!inside || !existsSync(file) || relative(root, file) === "") {
      response.writeHead(404, { "content-type": "text/plain" }).end("not found");
      return;
    }
    try {
      const body = readFileSync(file);
      response.writeHead(200, { "content-type": types[extname(file)] ?? "application/octet-stream" }).end(body);
    } catch {
      response.writeHead(404, { "content-type": "text/plain" }).end("not found");
    }
  });
  await new Promise<void>((listening) => server.listen(0, "127.0.0.1", listening));
  return server;
}
