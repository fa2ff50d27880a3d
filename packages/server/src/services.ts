/** Everything the routes need, built once by server.ts and passed down (no module-level state). */
import type { Span, Tracer } from "@opentelemetry/api";
import type { Context } from "hono";
import type { Kysely } from "kysely";
import type { ChangeFeed } from "./cache/change-feed";
import type { RequestVerifier } from "@org/webinar-validator";
import type { ApiKeyStore } from "./keys/api-keys";
import type { SecretBox } from "./keys/secret-box";
import type { ServerConfig } from "./config";
import type { Database } from "./db/schema";
import type { AppEnv } from "./http/app-env";
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
   * When the `OTEL_*` variables configure an exporter: the tracer of the OpenTelemetry SDK, and the services as a
   * request traced by a recorded span uses them. Undefined otherwise (then no span is made).
   */
  tracing: ServicesTracing | undefined;
}

export interface ServicesTracing {
  tracer: Tracer;
  /** These services with a database whose statements are spans under `span` (tracing/traced-dialect.ts). */
  under(span: Span): AppServices;
}

/**
 * The services as this request uses them: for a request traced by a recorded span, the server's services with a
 * database whose statements are spans under it (made on each call: a surface asks once per request); otherwise
 * the server's own.
 */
export function requestServices<Used extends Pick<AppServices, "tracing">>(c: Context<AppEnv>, services: Used): Used {
  const span = c.get("requestSpan");
  if (span === undefined || services.tracing === undefined) return services;
  // The same services with another database: whatever part of them the surface was given, they have.
  return services.tracing.under(span) as unknown as Used;
}
