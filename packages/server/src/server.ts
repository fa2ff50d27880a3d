/**
 * Assembles the server from its configuration: database (migrated), secret box, stores, verifier, app; then
 * listens and shuts down gracefully. Everything with a side effect on the outside world (clock, randomness,
 * fetch, log destination, stdout) can be injected, which is how the tests run several servers in one process.
 */
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Writable } from "node:stream";
import { createAdaptorServer } from "@hono/node-server";
import type { Tracer } from "@opentelemetry/api";
import type { Hono } from "hono";
import type { Kysely } from "kysely";
import type { NonceStore } from "@org/webinar-validator";
import { createApp } from "./app";
import type { AppEnv } from "./http/app-env";
import { createApiKeyStore } from "./auth/api-keys";
import type { ChangeFeed } from "./cache/change-feed";
import { openChangeFeed } from "./cache/open-change-feed";
import { openNonceStore, type ServerNonceStore } from "./auth/nonce-stores";
import { createVerifier } from "./auth/verifier";
import { createSecretBox, type SecretBox } from "./auth/secret-box";
import { resolveSecretKey } from "./auth/secret-key";
import { ConfigError, type ServerConfig } from "./config";
import { lockDataDir, type DataDirLock } from "./data-dir-lock";
import { connectDatabase, type DatabaseHandle } from "./db/connect";
import type { Database } from "./db/schema";
import { trackRequests } from "./http/graceful-close";
import { applyConnectionLimits, httpServerOptions } from "./http/server-options";
import { createLogger, logStyle, type Logger } from "./log";
import { listenForScrapes, type MetricsListener } from "./metrics/metrics-listener";
import { createServerMetrics, type ServerMetrics } from "./metrics/server-metrics";
import { systemRuntime, type Runtime } from "./runtime";
import { seedDemo, type DemoSeed } from "./seed/demo";
import { resolveAdminToken, saveDemoCredentials } from "./seed/demo-credentials";
import { startBanner } from "./start-banner";
import { createRequestLog } from "./console/request-log/request-log";
import { startStep } from "./start-error";
import type { AppServices } from "./services";
import { createWatchDomainResolver, type WatchDomainResolver } from "./tickets/watch-domain";
import { createWebinarMetadataSource, type WebinarMetadataSource } from "./tickets/webinar-metadata";
import { createDisplayNameModerator } from "./viewers/moderation";
import { createViewerUpserter } from "./viewers/upsert";
import { startFinalizer, type Finalizer } from "./watch-data/finalize";
import { createHeartbeatBatcher } from "./watch/heartbeat-batcher";
import { tracedNonceStore, tracedVerifier } from "./tracing/traced-verifier";
import { createWebinarDirectory } from "./webinars/webinar-directory";
import type { DestinationStream } from "pino";

/** Replacements for the outside world; all optional. */
export interface ServerOptions {
  runtime?: Runtime;
  logger?: Logger;
  /** Where the JSON log lines go when no `logger` is given (default stdout). */
  logDestination?: DestinationStream;
  /** `fetch` of the moderation client. */
  fetch?: typeof globalThis.fetch;
  /** A nonce store of @org/webinar-validator to use instead of the database's (or Redis's). */
  nonceStore?: NonceStore;
  /** Key prefix of the Redis nonce store. */
  redisKeyPrefix?: string;
  webinarMetadata?: WebinarMetadataSource;
  watchDomains?: WatchDomainResolver;
  /**
   * The tracer of a started OpenTelemetry SDK (main.ts starts it when the `OTEL_*` variables configure an
   * exporter): each request, verification, nonce claim and statement becomes a span. Undefined: no spans.
   */
  tracer?: Tracer | undefined;
}

/** A created server; `listen` starts serving. */
export interface WebinarServer {
  readonly app: Hono<AppEnv>;
  readonly services: AppServices;
  /** What the first-start seeding did (the secret is in here only when it was just created). */
  readonly demo: DemoSeed;
  /** Starts listening on config.host:config.port (0: a free port). */
  listen(): Promise<{ url: string; port: number }>;
  /** The background live-data finalizer of this process (`runOnce()` runs a pass now). */
  readonly finalizer: Finalizer;
  /** The base URL once listening, e.g. `http://127.0.0.1:8080`. */
  readonly url: string;
  /** Where Prometheus scrapes once listening (`http://127.0.0.1:9464/metrics`); undefined when metrics are off. */
  readonly metricsUrl: string | undefined;
  /**
   * Stops accepting connections, lets requests in flight finish (up to the grace period), commits the pending
   * batched writes (heartbeat credits, nonce claims, and every other group commit's drain), closes stores.
   */
  close(): Promise<void>;
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

const PRUNE_INTERVAL_MS = 60_000;

/** The database of the server, under the data directory's lock when it is kept on disk. */
export interface Storage {
  database: DatabaseHandle;
  lock: DataDirLock | undefined;
  /** Whether the server opened the database itself (and so closes it). */
  owned: boolean;
}

async function openStorage(config: ServerConfig, logger: Logger, tracer: Tracer | undefined): Promise<Storage> {
  const { storage } = config;
  // Everything kept on disk (the embedded database, the key file) is used under the data directory's lock.
  const lock =
    storage.kind === "pglite" && storage.dataDir !== "memory:"
      ? await startStep("data directory", () => lockDataDir(storage.dataDir))
      : undefined;
  try {
    const database = await startStep("database", () =>
      connectDatabase(storage, {
        connectTimeoutMs: config.dbConnectTimeoutMs,
        statementTimeoutMs: config.dbStatementTimeoutMs,
        poolMax: config.dbPoolMax,
        onPoolError: (error) => logger.warn({ err: error }, "database connection lost"),
        tracer,
      }),
    );
    return { database, lock, owned: true };
  } catch (error) {
    await lock?.release().catch(() => undefined);
    throw error;
  }
}

/** Closes what openStorage opened. */
async function closeStorage(storage: Storage): Promise<void> {
  if (storage.owned) await storage.database.close();
  await storage.lock?.release();
}

/** The services of the app; `listeningPort` is read once the server listens (the default watch origin). */
async function buildServices(
  config: ServerConfig,
  options: ServerOptions,
  db: Kysely<Database>,
  changes: ChangeFeed,
  nonces: ServerNonceStore,
  listeningPort: () => number | undefined,
  logger: Logger,
  metrics: ServerMetrics | undefined,
): Promise<AppServices> {
  const { tracer } = options;
  const runtime = options.runtime ?? systemRuntime;
  const box = createSecretBox(
    await startStep("data directory", () => resolveSecretKey(config.secretKey, config.storage, runtime)),
    runtime,
  );
  await checkSecretKey(db, box);
  const apiKeys = createApiKeyStore(db, box, runtime, changes);
  const webinars = createWebinarDirectory(db, changes);
  const moderator = createDisplayNameModerator(db, changes, {
    url: config.moderationUrl,
    timeoutMs: config.moderationTimeoutMs,
    fetch: options.fetch ?? globalThis.fetch,
  });
  const uidRange = { min: config.uidMin, max: config.uidMax };
  const defaultWatchOrigin = () => config.publicWatchOrigin ?? `http://127.0.0.1:${listeningPort() ?? config.port}`;
  const nonceStore = tracer === undefined ? nonces.store : tracedNonceStore(nonces.store, tracer);
  const verifier = createVerifier(config, apiKeys, nonceStore, runtime, logger);
  const heartbeats = createHeartbeatBatcher({ db, runtime, logger, onWrite: metrics?.heartbeatBatchWritten });
  return {
    config,
    db,
    runtime,
    logger,
    changes,
    webinars,
    apiKeys,
    moderator,
    upsertViewer: createViewerUpserter({ db, moderator, uidRange, runtime }),
    webinarMetadata: options.webinarMetadata ?? createWebinarMetadataSource(webinars),
    watchDomains: options.watchDomains ?? createWatchDomainResolver(db, defaultWatchOrigin),
    verifier: tracer === undefined ? verifier : tracedVerifier(verifier, tracer),
    cursorKey: box.deriveKey("viewer watch cursor v1"),
    heartbeats,
    requestObservers: metrics === undefined ? [] : [metrics.observeRequest],
    metrics,
    tracer,
    pendingWrites: [() => heartbeats.drain()],
  };
}

/** Every minute: expired nonces, watch sessions, and tickets a day after their expiry (kept for support questions). */
function startPruning(services: AppServices, nonces: ServerNonceStore): () => void {
  const { db, runtime, logger } = services;
  const timer = setInterval(() => {
    const now = new Date(runtime.now());
    void Promise.all([
      nonces.prune(),
      db.deleteFrom("watch_sessions").where("expires_at", "<", now).execute(),
      db
        .deleteFrom("login_tickets")
        .where("expires_at", "<", new Date(now.getTime() - 86_400_000))
        .execute(),
    ]).catch((error: unknown) => logger.warn({ err: error }, "pruning expired rows failed"));
  }, PRUNE_INTERVAL_MS);
  timer.unref();
  return () => clearInterval(timer);
}

/** Listens on config.host:config.port; resolves the base URL and the port. */
async function listenOn(httpServer: Server, config: ServerConfig): Promise<{ url: string; port: number }> {
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
  const host =
    config.host === "0.0.0.0" || config.host === "::"
      ? "127.0.0.1"
      : config.host.includes(":")
        ? `[${config.host}]`
        : config.host;
  return { url: `http://${host}:${port}`, port };
}

function loggerFor(config: ServerConfig, options: ServerOptions): Logger {
  return (
    options.logger ??
    createLogger(config.logLevel, options.logDestination, logStyle(config.logFormat, process.stdout, process.env))
  );
}

/**
 * Connects, migrates, seeds the demo data on first start and builds the app; does not listen yet.
 *
 * @example
 * const server = await createServer(loadConfig(process.env));
 * const { url } = await server.listen();
 */
export async function createServer(config: ServerConfig, options: ServerOptions = {}): Promise<WebinarServer> {
  const logger = loggerFor(config, options);
  return createServerOn(await openStorage(config, logger, options.tracer), config, options, logger);
}

/**
 * {@link createServer} on storage that is already open: the server closes it only when `storage.owned`.
 * @internal Tests run several servers on one database this way.
 */
export async function createServerOn(
  storage: Storage,
  config: ServerConfig,
  options: ServerOptions,
  logger: Logger = loggerFor(config, options),
): Promise<WebinarServer> {
  const runtime = options.runtime ?? systemRuntime;
  const { db } = storage.database;
  // Metrics only when they are served: a server without WEBINAR_METRICS_PORT does no metric work at all.
  const metrics = config.metricsPort === undefined ? undefined : createServerMetrics();
  const nonces = openNonceStore({
    db,
    runtime,
    redisUrl: config.redisUrl,
    redisKeyPrefix: options.redisKeyPrefix,
    custom: options.nonceStore,
    onWrite: metrics?.nonceBatchWritten,
  });
  let listeningPort: number | undefined;
  let services: AppServices;
  let demo: DemoSeed;
  let changes: ChangeFeed | undefined;
  try {
    const feed = await startStep("database", () =>
      openChangeFeed(config.storage, storage.database, logger, metrics?.cacheRead),
    );
    changes = feed;
    services = await buildServices(config, options, db, feed, nonces, () => listeningPort, logger, metrics);
    metrics?.watch(feed, { db, runtime, pool: storage.database.pool });
    demo = config.seedDemo
      ? await seedDemo(db, services.apiKeys, runtime, config.consoleInviteTtlSeconds)
      : { kind: "none" };
    // WEBINAR_ADMIN_TOKEN, or the demo's own token on its data directory (seed/demo-credentials.ts).
    const adminToken = await startStep("data directory", () => resolveAdminToken(config, demo, runtime));
    services = { ...services, config: { ...services.config, adminToken } };
  } catch (error) {
    await changes?.close().catch(() => undefined);
    await nonces.close().catch(() => undefined);
    await closeStorage(storage).catch(() => undefined);
    throw error;
  }
  const requestLog = createRequestLog({
    db,
    verifier: services.verifier,
    logger,
    runtime,
    retention: {
      retentionDays: config.requestLogRetentionDays,
      maxRowsPerMerchant: config.requestLogMaxRowsPerMerchant,
    },
  });
  if (config.requestLogEnabled) services.requestObservers.push(requestLog.observe);
  // The request log's last rows, queued by the last requests, are written before the database closes.
  services.pendingWrites.push(() =>
    requestLog.drain().catch((error: unknown) => logger.warn({ err: error }, "writing the request log failed")),
  );
  const app = createApp(services);
  const httpServer = createAdaptorServer({
    fetch: app.fetch,
    hostname: config.host,
    serverOptions: httpServerOptions(config),
  }) as Server;
  applyConnectionLimits(httpServer, config);
  const requests = trackRequests(httpServer);
  const stopPruning = startPruning(services, nonces);
  const stopRequestLogRetention = config.requestLogEnabled ? requestLog.startRetention() : () => undefined;
  const finalizer = startFinalizer(db, services.changes, runtime, logger, config.finalizePollMs);

  let url: string | undefined;
  let metricsListener: MetricsListener | undefined;
  let closing: Promise<void> | undefined;
  return {
    app,
    services,
    demo,
    finalizer,
    get url() {
      if (url === undefined) throw new Error("the server is not listening yet");
      return url;
    },
    get metricsUrl() {
      return metricsListener?.url;
    },
    async listen() {
      const listening = await listenOn(httpServer, config);
      ({ url, port: listeningPort } = listening);
      if (metrics !== undefined && config.metricsPort !== undefined) {
        metricsListener = await listenForScrapes(metrics.registry, config.metricsHost, config.metricsPort);
        logger.info({ metricsUrl: metricsListener.url }, "metrics listening");
      }
      logger.info(
        { url, storage: config.storage.kind, nonceStore: nonces.kind, tracing: options.tracer !== undefined },
        "listening",
      );
      return listening;
    },
    close() {
      closing ??= (async () => {
        stopPruning();
        stopRequestLogRetention();
        await finalizer.stop();
        if (httpServer.listening)
          logger.info({ inFlight: requests.inFlight }, "closing: no new connections, waiting for requests in flight");
        await requests.close(config.shutdownGraceMs);
        // Every acknowledged write is committed before the database closes; anything a cut request left
        // pending is committed too.
        await Promise.all(services.pendingWrites.map((drain) => drain()));
        await nonces.drain();
        await metricsListener?.close();
        await services.changes.close();
        await nonces.close();
        await closeStorage(storage);
        logger.info("closed");
        // The log is written asynchronously: make sure the last lines are out before the process may exit.
        await new Promise<void>((resolve) => logger.flush(() => resolve()));
      })();
      return closing;
    },
  };
}

/**
 * Creates the server, listens, saves the demo's credentials file (seed/demo-credentials.ts) and prints the start
 * block to `stdout` (the demo's secret on the first start only). Used by main.ts and by tests that check the block.
 */
export async function startServer(
  config: ServerConfig,
  options: ServerOptions & { stdout?: Writable } = {},
): Promise<WebinarServer> {
  return announce(await createServer(config, options), config, options.stdout ?? process.stdout);
}

/**
 * Listens, saves the demo's credentials and prints the start block; closes the server when any of it fails.
 * @internal
 */
export async function announce(server: WebinarServer, config: ServerConfig, stdout: Writable): Promise<WebinarServer> {
  try {
    const { url } = await server.listen();
    const { adminToken } = server.services.config;
    const consoleOrigin = config.publicOrigin ?? url;
    const credentialsFile = await startStep("data directory", () =>
      saveDemoCredentials(config, server.demo, url, adminToken, consoleOrigin),
    );
    const admin = config.adminToken !== undefined ? "environment" : adminToken !== undefined ? "demo" : "disabled";
    stdout.write(
      startBanner({ baseUrl: url, consoleOrigin, storage: config.storage, demo: server.demo, credentialsFile, admin }),
    );
  } catch (error) {
    await server.close();
    throw error;
  }
  return server;
}
