/**
 * The listener Prometheus scrapes: `GET /metrics` on an address of its own (WEBINAR_METRICS_HOST, 127.0.0.1 by
 * default, and WEBINAR_METRICS_PORT), never on the public port, so the figures of the service reach only those
 * the operator lets reach that address. Every other path is 404.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Registry } from "prom-client";
import { startStep } from "../start-error";

export interface MetricsListener {
  /** e.g. `http://127.0.0.1:9464/metrics` */
  readonly url: string;
  close(): Promise<void>;
}

function scrapeServer(registry: Registry): Server {
  return createServer((request, response) => {
    const path = (request.url ?? "/").split("?")[0];
    if (path !== "/metrics" || (request.method !== "GET" && request.method !== "HEAD")) {
      response.writeHead(404, { "Content-Type": "text/plain; charset=utf-8" }).end("not found; try GET /metrics\n");
      return;
    }
    registry.metrics().then(
      (text) => response.writeHead(200, { "Content-Type": registry.contentType }).end(text),
      () => response.writeHead(500, { "Content-Type": "text/plain; charset=utf-8" }).end("metrics unavailable\n"),
    );
  });
}

/** Listens on `host:port` (0: a free port); a port that cannot be opened stops the start naming the variable. */
export async function listenForScrapes(registry: Registry, host: string, port: number): Promise<MetricsListener> {
  const server = scrapeServer(registry);
  await startStep(
    "metrics listen",
    () =>
      new Promise<void>((resolve, reject) => {
        server.once("error", reject);
        server.listen(port, host, () => resolve());
      }),
  );
  const { port: bound } = server.address() as AddressInfo;
  const shownHost = host.includes(":") ? `[${host}]` : host;
  return {
    url: `http://${shownHost}:${bound}/metrics`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
