/**
 * The console's request log of the Open API: an observer of each answered request (http/request-observation.ts)
 * that queues one entry per Open API request carrying an API key (rows.ts) for the group commit (writer.ts), and
 * the periodic retention (retention.ts). Unverified requests are bounded per key and minute (unverified-budget.ts).
 * `drain()` writes what is queued, before the database closes.
 */
import type { Kysely } from "kysely";
import type { RequestVerifier } from "@org/webinar-validator";
import type { Database } from "../../db/schema";
import type { RequestObserver } from "../../http/request-observation";
import type { Logger } from "../../logging/log";
import type { Runtime } from "../../runtime";
import type { InBatchSpan } from "../../tracing/batch-spans";
import { pruneRequestLog, type RetentionSettings } from "./retention";
import { requestLogEntry } from "./rows";
import { unverifiedBudget } from "./unverified-budget";
import { createRequestLogWriter } from "./writer";

export interface RequestLog {
  observe: RequestObserver;
  /** Starts the retention timer; returns its stop, which resolves once a run in progress has ended. */
  startRetention(): () => Promise<void>;
  drain(): Promise<void>;
}

export interface RequestLogOptions {
  db: Kysely<Database>;
  verifier: Pick<RequestVerifier, "matchPath">;
  logger: Logger;
  runtime: Runtime;
  retention: RetentionSettings & {
    intervalMs: number;
    /** PostgreSQL: one process prunes at a time (an advisory lock). */
    exclusive: boolean;
  };
  unverifiedPerKeyPerMinute: number;
  /** Told of each unverified request counted and not stored (a metric). */
  onUnverifiedDropped?: (() => void) | undefined;
  /** With tracing on: each batch written in one span, its statement under it. */
  inBatchSpan?: InBatchSpan | undefined;
}

export function createRequestLog(options: RequestLogOptions): RequestLog {
  const { db, verifier, logger, runtime, retention } = options;
  const write = createRequestLogWriter(db, verifier, options.inBatchSpan);
  const budget = unverifiedBudget(options.unverifiedPerKeyPerMinute, (minute) =>
    logger.warn(minute, "unverified Open API requests over the per-key bound were counted, not logged"),
  );
  const failed = (error: unknown) => logger.warn({ err: error }, "writing the request log failed");
  const prune = async () => {
    try {
      const outcome = await pruneRequestLog(db, retention, runtime.now(), { exclusive: retention.exclusive });
      if (outcome.kind === "skipped") logger.debug("request log retention: another process is pruning");
      else if (outcome.deleted > 0) logger.info(outcome, "request log pruned");
    } catch (error) {
      logger.warn({ err: error }, "pruning the request log failed");
    }
  };
  return {
    observe(observation, c) {
      if (observation.surface !== "open") return;
      const entry = requestLogEntry(observation, c);
      if (entry === undefined) return;
      if (!entry.verified && !budget.admit(entry.apiKey, runtime.now())) {
        options.onUnverifiedDropped?.();
        return;
      }
      write(entry).catch(failed);
    },
    startRetention() {
      let running: Promise<void> | undefined;
      const timer = setInterval(() => {
        running ??= prune().finally(() => {
          running = undefined;
        });
      }, retention.intervalMs);
      timer.unref();
      return async () => {
        clearInterval(timer);
        await running;
      };
    },
    drain: () => write.drain(),
  };
}
