/** Everything the routes need, built once by server.ts and passed down (no module-level state). */
import type { Tracer } from "@opentelemetry/api";
import type { Kysely } from "kysely";
import type { ChangeFeed } from "./cache/change-feed";
import type { RequestVerifier } from "@org/webinar-validator";
import type { ApiKeyStore } from "./keys/api-keys";
import type { SecretBox } from "./keys/secret-box";
import type { ServerConfig } from "./config";
import type { Database } from "./db/schema";
import type { RequestObserver } from "./http/request-observation";
import type { Logger } from "./logging/log";
import type { ServerMetrics } from "./metrics/server-metrics";
import type { PasswordHasher } from "./people/passwords";
import type { Runtime } from "./runtime";
import type { HeartbeatBatcher } from "./watch-data/heartbeat-batcher";
import type { WatchDomainResolver } from "./tickets/watch-domain";
import type { WebinarMetadataSource } from "./tickets/webinar-metadata";
import type { DisplayNameModerator } from "./viewers/moderation";
import type { ViewerUpserter } from "./viewers/upsert";
import type { WebinarDirectory } from "./webinars/webinar-directory";

export interface AppServices {
  config: ServerConfig;
  db: Kysely<Database>;
  runtime: Runtime;
  logger: Logger;
  /** Announces changes of cached data to every process, and tells this process's caches of them. */
  changes: ChangeFeed;
  /** Webinars by public code, read from memory. */
  webinars: WebinarDirectory;
  apiKeys: ApiKeyStore;
  moderator: DisplayNameModerator;
  /** upsertViewer's one statement, prepared once. */
  upsertViewer: ViewerUpserter;
  webinarMetadata: WebinarMetadataSource;
  watchDomains: WatchDomainResolver;
  /** The Open API's authentication: @org/webinar-validator's verifier with the server's key lookup and nonce store. */
  verifier: RequestVerifier;
  /** MAC key of the detail query's cursors, derived from the secret key so every process accepts them. */
  cursorKey: Buffer;
  /** Seals secrets kept at rest under the server's key: API-key secrets (through apiKeys) and console TOTP secrets. */
  secretBox: SecretBox;
  /** Console passwords: scrypt, a bounded number at once in this process. */
  passwords: PasswordHasher;
  /** Heartbeats and stops of the watch page, credited in batches; drained by the server's shutdown. */
  heartbeats: HeartbeatBatcher;
  /** Observers of each answered request besides the access log (http/request-observation.ts). */
  requestObservers: RequestObserver[];
  /** The Prometheus metrics; undefined when WEBINAR_METRICS_PORT is unset (then nothing is measured). */
  metrics: ServerMetrics | undefined;
  /**
   * The tracer of the OpenTelemetry SDK when the `OTEL_*` variables configure an exporter; undefined otherwise
   * (then no span is made).
   */
  tracer: Tracer | undefined;
}
