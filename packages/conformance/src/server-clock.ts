/**
 * The server's clock as a client can see it: the `Date` header of its answers. The timestamp-window checks aim at
 * the server's "now", so a kit running on a machine whose clock is a few seconds off still finds both edges.
 * `Date` has whole seconds, so an estimate is good to about one second; without the header the local clock is used.
 */
export interface ServerClock {
  /** Learns from one answer: its `Date` header and when the request left and the answer arrived (epoch ms). */
  observe(dateHeader: string | undefined, sentAtMs: number, receivedAtMs: number): void;
  /** The server's current time in epoch ms, as estimated. */
  now(): number;
  /** Estimated server clock minus local clock, in ms, or `undefined` when no answer carried a `Date` header. */
  offsetMs(): number | undefined;
}

/** A clock estimate over `localNow` (default `Date.now`), refined by every observed answer. */
export function createServerClock(localNow: () => number = Date.now): ServerClock {
  let offset: number | undefined;
  return {
    observe(dateHeader, sentAtMs, receivedAtMs) {
      if (dateHeader === undefined) return;
      const serverMs = Date.parse(dateHeader);
      if (Number.isNaN(serverMs)) return;
      // The header's second was truncated: on average the server's clock was half a second past it.
      offset = serverMs + 500 - (sentAtMs + receivedAtMs) / 2;
    },
    now: () => localNow() + (offset ?? 0),
    offsetMs: () => offset,
  };
}
