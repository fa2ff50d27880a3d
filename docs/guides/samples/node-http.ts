/**
 * node:http: a bare `http.createServer` with the app's own route and the four Webinar Open API operations. The
 * same handler is Connect middleware: `app.use(webinarNode(verifier))` calls `next()` for every other path.
 *
 * Run: WEBINAR_API_KEY=wk_demo WEBINAR_API_SECRET=demo-secret PORT=3000 npx tsx node-http.ts
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { webinarNode } from "@org/webinar-validator/node";
import { answer } from "./operations.js";
import { verifier } from "./verifier.js";

const port = Number(process.env.PORT ?? 3000);
const webinar = webinarNode(verifier);

/** The app's own routes. */
function ownRoutes(req: IncomingMessage, res: ServerResponse): void {
  if (req.method === "GET" && req.url === "/hello") {
    res.end("Hello World!");
    return;
  }
  res.writeHead(404).end();
}

const server = createServer(async (req, res) => {
  // The four operation paths (and their non-canonical variants) are the verifier's; everything else is the app's.
  if (!verifier.handlesPath(req.url ?? "")) {
    ownRoutes(req, res);
    return;
  }
  // Answers a rejected request itself and resolves undefined; otherwise resolves the verified request, with
  // X-Request-Id (and CORS headers) already set on res.
  const verified = await webinar(req, res);
  if (verified === undefined) return;
  const { status, body } = await answer(verified);
  res.writeHead(status, { "Content-Type": "application/json" }).end(JSON.stringify(body));
});

server.listen(port, "127.0.0.1", () => {
  console.log(`listening on http://127.0.0.1:${(server.address() as AddressInfo).port}`);
});
