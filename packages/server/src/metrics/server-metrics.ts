/**
 * The Prometheus metrics of one server, in a registry of its own (several servers can run in one process, as the
 * tests do; prom-client's global registry is never used). Made only when WEBINAR_METRICS_PORT is set, so a server
 * without metrics does no metric work at all.
 */
import type { BatchWritten } from "@org/webinar-validator";
import { collectDefaultMetrics, Registry } from "prom-client";
import type { CacheReadObserver, ChangeFeed } from "../cache/change-feed";
import type { RequestObserver } from "../http/request-observation";
import { batchMetrics } from "./batch-metrics";
import { cacheMetrics } from "./cache-metrics";
import { databaseMetrics, type DatabaseSources } from "./database-metrics";
import { requestMetrics } from "./http-metrics";
import { passwordHashMetrics } from "./password-metrics";
import { requestLogMetrics } from "./request-log-metrics";

export interface ServerMetrics {
  readonly registry: Registry;
  /** Counts each answered request (an observer of http/request-observation.ts). */
  readonly observeRequest: RequestObserver;
  /** `onWrite` of the heartbeat batches. */
  readonly heartbeatBatchWritten: (written: BatchWritten) => void;
  /** `onWrite` of the nonce claim batches. */
  readonly nonceBatchWritten: (written: BatchWritten) => void;
  /** The change feed's hook for each cached read. */
  readonly cacheRead: CacheReadObserver;
  /** Counts an unverified Open API request the request log did not store (over its key's bound per minute). */
  readonly requestLogUnverifiedDropped: () => void;
  /** The console password hasher's `observe` hook. */
  readonly passwordHash: (event: "start" | "end") => void;
  /** Starts reporting what the built server holds: its change feed and its database. */
  watch(feed: ChangeFeed, database: DatabaseSources): void;
}

/**
 * @example
 * const metrics = createServerMetrics();
 * const text = await metrics.registry.metrics(); // the Prometheus exposition format
 */
export function createServerMetrics(): ServerMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const batches = batchMetrics(registry);
  const caches = cacheMetrics(registry);
  let database: DatabaseSources | undefined;
  databaseMetrics(registry, () => database);
  return {
    registry,
    observeRequest: requestMetrics(registry),
    heartbeatBatchWritten: batches.heartbeat,
    nonceBatchWritten: batches.nonce_claim,
    cacheRead: caches.read,
    passwordHash: passwordHashMetrics(registry),
    requestLogUnverifiedDropped: requestLogMetrics(registry),
    watch(feed, sources) {
      caches.watch(feed);
      database = sources;
    },
  };
}
