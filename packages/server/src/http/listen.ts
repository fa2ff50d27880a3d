/** The public listener: config.host:config.port (0: a free port), and the base URL clients reach it at. */
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { ServerConfig } from "../config";
import { startStep } from "../start-error";

/** Listens on config.host:config.port; resolves the base URL and the port. */
export async function listenOn(httpServer: Server, config: ServerConfig): Promise<{ url: string; port: number }> {
  await startStep(
    "listen",
    () =>
      new Promise<void>((resolve, reject) => {
        httpServer.once("error", reject);
        httpServer.listen(config.port, config.host, () => {
          httpServer.off("error", reject);
          resolve();
        });
      }),
  );
  const port = (httpServer.address() as AddressInfo).port;
  // A wildcard address is reached on the loopback; an IPv6 literal is bracketed in a URL.
  const host =
    config.host === "0.0.0.0" || config.host === "::"
      ? "127.0.0.1"
      : config.host.includes(":")
        ? `[${config.host}]`
        : config.host;
  return { url: `http://${host}:${port}`, port };
}
