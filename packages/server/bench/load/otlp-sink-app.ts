/**
 * The OTLP sink's process (otlp-sink.ts starts it): accepts every trace export and throws it away, counting
 * exports and bytes. It runs apart from the benchmark so that receiving the exports never holds up the load
 * generator's event loop, as a collector on another host would not.
 *
 *   PORT=… node --import tsx otlp-sink-app.ts
 *
 * `GET /healthz` answers 200 once it listens; `GET /received` answers `{ exports, bytes }` so far.
 */
import { createServer } from "node:http";

let exports = 0;
let bytes = 0;

const server = createServer((request, response) => {
  if (request.method === "GET") {
    const body = request.url === "/received" ? JSON.stringify({ exports, bytes }) : "{}";
    response.writeHead(200, { "Content-Type": "application/json" }).end(body);
    return;
  }
  request.on("data", (chunk: Buffer) => (bytes += chunk.length));
  request.on("end", () => {
    if (request.url === "/v1/traces") exports += 1;
    response.writeHead(200, { "Content-Type": request.headers["content-type"] ?? "application/json" }).end();
  });
});
server.listen(Number(process.env.PORT), process.env.HOST ?? "127.0.0.1");
process.on("SIGTERM", () => server.close(() => process.exit(0)));
