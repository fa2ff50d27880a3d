/**
 * Shutting the HTTP server down without cutting anyone off: it stops accepting connections, answers every request
 * that is still in flight or still arrives on an open keep-alive connection with `Connection: close` (so the
 * client does not send another one there), closes idle keep-alive connections at once, and waits for the requests
 * in flight up to a grace period before cutting what is left.
 */
import type { Server, ServerResponse } from "node:http";

export interface GracefulClose {
  /** Requests whose answer is not yet written out. */
  readonly inFlight: number;
  /** Stops the server as described above; resolves once every connection is closed. */
  close(graceMs: number): Promise<void>;
}

/** How long connections that became idle after their last answer get to close by themselves. */
const IDLE_CLOSE_MS = 1000;

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

/**
 * Tracks the requests of `server` from now on; call before it listens.
 *
 * @example
 * const shutdown = trackRequests(httpServer);
 * process.on("SIGTERM", () => shutdown.close(10_000));
 */
export function trackRequests(server: Server): GracefulClose {
  const open = new Set<ServerResponse>();
  let closing = false;
  let drained: (() => void) | undefined;
  server.on("request", (_req, res) => {
    open.add(res);
    if (closing) res.setHeader("Connection", "close");
    res.once("close", () => {
      open.delete(res);
      if (open.size === 0) drained?.();
    });
  });
  return {
    get inFlight() {
      return open.size;
    },
    async close(graceMs) {
      closing = true;
      for (const res of open) if (!res.headersSent) res.setHeader("Connection", "close");
      if (!server.listening) return;
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      if (open.size > 0) await Promise.race([new Promise<void>((resolve) => (drained = resolve)), pause(graceMs)]);
      // Keep-alive connections that became idle are closed now; any left after a moment are cut.
      server.closeIdleConnections();
      await Promise.race([closed, pause(IDLE_CLOSE_MS)]);
      server.closeAllConnections();
      await closed;
    },
  };
}
