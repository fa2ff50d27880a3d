/**
 * Where a traced server of `pnpm bench:load --tracing` sends its spans: an OTLP/HTTP endpoint that accepts every
 * export and throws it away, counting them, so the figures include the whole cost of tracing (making the spans,
 * encoding and sending them) and none of a collector's.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

export interface OtlpSink {
  /** The value of OTEL_EXPORTER_OTLP_ENDPOINT. */
  readonly url: string;
  /** Trace exports received so far, and their bytes. */
  received(): { exports: number; bytes: number };
  close(): Promise<void>;
}

export async function startOtlpSink(): Promise<OtlpSink> {
  let exports = 0;
  let bytes = 0;
  const server = createServer((request, response) => {
    request.on("data", (chunk: Buffer) => (bytes += chunk.length));
    request.on("end", () => {
      if (request.url === "/v1/traces") exports += 1;
      response.writeHead(200, { "Content-Type": request.headers["content-type"] ?? "application/json" }).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received: () => ({ exports, bytes }),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
