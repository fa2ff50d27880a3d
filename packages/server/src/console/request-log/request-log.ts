/**
 * The console's request log of the Open API: an observer of each answered request (http/request-observation.ts)
 * that queues one row per Open API request carrying an API key (rows.ts) for the group commit (writer.ts), and the
 * periodic retention (retention.ts). `drain()` writes what is queued, before the database closes.
 */
import type { Kysely } from "kysely";
import type { RequestVerifier } from "@org/webinar-validator";
import type { Database } from "../../db/schema";
import type { RequestObserver } from "../../http/request-observation";
import type { Logger } from "../../log";
import type { Runtime } from "../../runtime";
import { pruneRequestLog, type RetentionSettings } from "./retention";
import { requestLogRow } from "./rows";
import { createRequestLogWriter } from "./writer";

export interface RequestLog {
  observe: RequestObserver;
  /** Starts the retention timer (every minute); returns its stop. */
  startRetention(): () => void;
  drain(): Promise<void>;
}

const RETENTION_INTERVAL_MS = 60_000;

export function createRequestLog(options: {
  db: Kysely<Database>;
  verifier: Pick<RequestVerifier, "matchPath">;
  logger: Logger;
  runtime: Runtime;
  retention: RetentionSettings;
}): RequestLog {
  const { db, verifier, logger, runtime, retention } = options;
  const write = createRequestLogWriter(db);
  return {
    observe(observation, c) {
      if (observation.surface !== "open") return;
      const row = requestLogRow(observation, c, verifier);
      if (row === undefined) return;
      write(row).catch((error: unknown) => logger.warn({ err: error }, "writing the request log failed"));
    },
    startRetention() {
      const timer = setInterval(() => {
        pruneRequestLog(db, retention, runtime.now()).catch((error: unknown) =>
          logger.warn({ err: error }, "pruning the request log failed"),
        );
      }, RETENTION_INTERVAL_MS);
      timer.unref();
      return () => clearInterval(timer);
    },
    drain: () => write.drain(),
  };
}
