/**
 * The caches of what rarely changes (cache/): reads answered from memory and from the database, and clearings, per
 * cache (one per change topic); and whether the change feed listens, without which every read goes to the database.
 */
import { Counter, Gauge, type Registry } from "prom-client";
import { CHANGE_TOPICS, type CacheReadObserver, type ChangeFeed } from "../cache/change-feed";

export interface CacheMetrics {
  /** Counts one read of a cache (the change feed's hook). */
  read: CacheReadObserver;
  /** Counts the clearings `feed` announces and reports whether it listens. */
  watch(feed: ChangeFeed): void;
}

export function cacheMetrics(registry: Registry): CacheMetrics {
  const counter = (name: string, help: string) =>
    new Counter({ name, help, labelNames: ["cache"] as const, registers: [registry] });
  const hits = counter("webinar_cache_hits_total", "Reads answered from a cache's memory.");
  const misses = counter(
    "webinar_cache_misses_total",
    "Reads a cache sent to the database (not held, or the change feed is not listening).",
  );
  const invalidations = counter(
    "webinar_cache_invalidations_total",
    "Clearings of a cache: a change of its data here or in another process, or the change feed lost or regained.",
  );
  let watched: ChangeFeed | undefined;
  new Gauge({
    name: "webinar_change_feed_listening",
    help: "1 while the change feed hears every process's changes (caches answer), 0 while it does not (caches are bypassed).",
    registers: [registry],
    collect() {
      if (watched !== undefined) this.set(watched.listening ? 1 : 0);
    },
  });
  return {
    read: (cache, hit) => (hit ? hits : misses).inc({ cache }),
    watch(feed) {
      watched = feed;
      feed.subscribe((signal) => {
        for (const cache of signal === "all" ? CHANGE_TOPICS : [signal]) invalidations.inc({ cache });
      });
    },
  };
}
