/**
 * Builds the services the routes share (services.ts), once and complete: the demo is seeded and the admin token
 * resolved before the services exist, so nothing changes them afterwards. Also hands back the demo seed and the
 * request log, which the server itself starts and drains.
 */
import type { Tracer } from "@opentelemetry/api";
import type { Kysely } from "kysely";
import { createRequestLog, type RequestLog } from "./console/request-log/request-log";
import type { ChangeFeed } from "./cache/change-feed";
import { ConfigError, type ServerConfig } from "./config";
import type { Database } from "./db/schema";
import { createApiKeyStore } from "./keys/api-keys";
import type { ServerNonceStore } from "./keys/nonce-stores";
import { createSecretBox, type SecretBox } from "./keys/secret-box";
import { resolveSecretKey } from "./keys/secret-key";
import { createVerifier } from "./keys/verifier";
import type { Logger } from "./logging/log";
import type { ServerMetrics } from "./metrics/server-metrics";
import { createPasswordHasher, type ScryptCost } from "./people/passwords";
import type { Runtime } from "./runtime";
import { seedDemo, type DemoSeed } from "./seed/demo";
import { resolveAdminToken } from "./seed/demo-credentials";
import type { AppServices } from "./services";
import { startStep } from "./start-error";
import { createWatchDomainResolver, type WatchDomainResolver } from "./tickets/watch-domain";
import { createWebinarMetadataSource, type WebinarMetadataSource } from "./tickets/webinar-metadata";
import { createDisplayNameModerator } from "./viewers/moderation";
import { createViewerUpserter } from "./viewers/upsert";
import { createHeartbeatBatcher } from "./watch-data/heartbeat-batcher";
import { batchSpans, untracedBatches } from "./tracing/batch-spans";
import type { DatabaseUnder } from "./tracing/traced-dialect";
import { createWebinarDirectory } from "./webinars/webinar-directory";

/** What the services are built on: the opened stores of the server. */
export interface ServiceFoundations {
  config: ServerConfig;
  runtime: Runtime;
  /** With tracing on: the tracer, and the database as a span sees it. */
  tracing: { tracer: Tracer; databaseUnder: DatabaseUnder } | undefined;
  /** `fetch` of the moderation client. */
  fetch: typeof globalThis.fetch;
  /** Replacements the server's options may give. */
  webinarMetadata: WebinarMetadataSource | undefined;
  watchDomains: WatchDomainResolver | undefined;
  passwordCost: ScryptCost | undefined;
  db: Kysely<Database>;
  changes: ChangeFeed;
  nonces: ServerNonceStore;
  /** The port once the server listens (the default watch origin). */
  listeningPort: () => number | undefined;
  logger: Logger;
  metrics: ServerMetrics | undefined;
}

/** The built services, and what of them the server starts and drains itself. */
export interface AssembledServices {
  services: AppServices;
  /** What the first-start seeding did. */
  demo: DemoSeed;
  requestLog: RequestLog;
}

/** A stored fingerprint of the key refuses a start with another key, instead of failing every signed request. */
async function checkSecretKey(db: Kysely<Database>, box: SecretBox): Promise<void> {
  await db
    .insertInto("server_meta")
    .values({ key: "secret_key_check", value: box.keyCheck })
    .onConflict((conflict) => conflict.column("key").doNothing())
    .execute();
  const stored = await db
    .selectFrom("server_meta")
    .select("value")
    .where("key", "=", "secret_key_check")
    .executeTakeFirstOrThrow();
  if (stored.value !== box.keyCheck) {
    throw new ConfigError(
      "WEBINAR_SECRET_KEY (or the data directory's secret.key) is not the key the stored API-key secrets were encrypted with; start with the original key",
    );
  }
}

/** Builds the services; see the module comment. */
export async function assembleServices(foundations: ServiceFoundations): Promise<AssembledServices> {
  const { runtime, tracing, db, changes, nonces, logger, metrics } = foundations;
  const secretKey = await startStep("data directory", () =>
    resolveSecretKey(foundations.config.secretKey, foundations.config.storage, runtime),
  );
  const box = createSecretBox(secretKey, runtime);
  await checkSecretKey(db, box);
  const apiKeys = createApiKeyStore(db, box, runtime, changes);
  const demo: DemoSeed = foundations.config.seedDemo
    ? await seedDemo(db, apiKeys, runtime, foundations.config.consoleInviteTtlSeconds)
    : { kind: "none" };
  // WEBINAR_ADMIN_TOKEN, or the demo's own token on its data directory (seed/demo-credentials.ts).
  const adminToken = await startStep("data directory", () => resolveAdminToken(foundations.config, demo, runtime));
  const config: ServerConfig = { ...foundations.config, adminToken };
  const webinars = createWebinarDirectory(db, changes);
  const moderator = createDisplayNameModerator(db, changes, {
    url: config.moderationUrl,
    timeoutMs: config.moderationTimeoutMs,
    fetch: foundations.fetch,
  });
  const uidRange = { min: config.uidMin, max: config.uidMax };
  const defaultWatchOrigin = () =>
    config.publicWatchOrigin ?? `http://127.0.0.1:${foundations.listeningPort() ?? config.port}`;
  const verifier = createVerifier(config, apiKeys, nonces.store, runtime, logger);
  const inBatchSpan =
    tracing === undefined ? untracedBatches(db) : batchSpans(tracing.tracer, db, tracing.databaseUnder);
  const requestLog = createRequestLog({
    db,
    verifier,
    logger,
    runtime,
    retention: {
      retentionDays: config.requestLogRetentionDays,
      maxRowsPerMerchant: config.requestLogMaxRowsPerMerchant,
      intervalMs: config.requestLogPruneSeconds * 1000,
      exclusive: config.storage.kind === "postgres",
    },
    unverifiedPerKeyPerMinute: config.requestLogUnverifiedPerKeyPerMinute,
    onUnverifiedDropped: metrics?.requestLogUnverifiedDropped,
    inBatchSpan,
  });
  const services: AppServices = {
    config,
    db,
    runtime,
    logger,
    changes,
    webinars,
    apiKeys,
    moderator,
    upsertViewer: createViewerUpserter({ db, moderator, uidRange, runtime }),
    webinarMetadata: foundations.webinarMetadata ?? createWebinarMetadataSource(webinars),
    watchDomains: foundations.watchDomains ?? createWatchDomainResolver(db, defaultWatchOrigin),
    verifier,
    cursorKey: box.deriveKey("viewer watch cursor v1"),
    secretBox: box,
    passwords: createPasswordHasher({
      runtime,
      atOnce: config.consolePasswordHashesAtOnce,
      cost: foundations.passwordCost,
      ...(metrics === undefined ? {} : { observe: metrics.passwordHash }),
    }),
    heartbeats: createHeartbeatBatcher({
      db,
      runtime,
      logger,
      heartbeatIntervalSeconds: config.heartbeatIntervalSeconds,
      onWrite: metrics?.heartbeatBatchWritten,
      inBatchSpan,
    }),
    requestObservers: [
      ...(metrics === undefined ? [] : [metrics.observeRequest]),
      ...(config.requestLogEnabled ? [requestLog.observe] : []),
    ],
    metrics,
    tracing:
      tracing === undefined
        ? undefined
        : {
            tracer: tracing.tracer,
            // What runs statements for a request: its database, and the viewer upsert made on it. The rest reads
            // through caches shared by every request, whose statements belong to none of them.
            under(span) {
              const spanDb = tracing.databaseUnder(span);
              return {
                ...services,
                db: spanDb,
                upsertViewer: createViewerUpserter({ db: spanDb, moderator, uidRange, runtime }),
              };
            },
          },
  };
  return { services, demo, requestLog };
}
