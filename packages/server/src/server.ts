/**
 * Assembles the server from its configuration: database (migrated), secret box, stores, verifier, app; then
 * listens and shuts down gracefully. Everything with a side effect on the outside world (clock, randomness,
 * fetch, log destination, stdout) can be injected, which is how the tests run several servers in one process.
 */
import type { Server } from "node:http";
import type { Writable } from "node:stream";
import { createAdaptorServer } from "@hono/node-server";
import type { Tracer } from "@opentelemetry/api";
import type { Hono } from "hono";
import type { NonceStore } from "@org/webinar-validator";
import type { DestinationStream } from "pino";
import { createApp } from "./app";
import { assembleServices } from "./assemble-services";
import { openChangeFeed } from "./cache/open-change-feed";
import type { ServerConfig } from "./config";
import type { AppEnv } from "./http/app-env";
import { trackRequests } from "./http/graceful-close";
import { listenOn } from "./http/listen";
import { applyConnectionLimits, httpServerOptions } from "./http/server-options";
import { openNonceStore } from "./keys/nonce-stores";
import { createLifecycle, type Lifecycle } from "./lifecycle";
import { createLogger, logStyle, type Logger } from "./logging/log";
import { listenForScrapes, type MetricsListener } from "./metrics/metrics-listener";
import { createServerMetrics, type ServerMetrics } from "./metrics/server-metrics";
import { startPruning } from "./prune-expired";
import { systemRuntime, type Runtime } from "./runtime";
import type { DemoSeed } from "./seed/demo";
import { saveDemoCredentials } from "./seed/demo-credentials";
import type { AppServices } from "./services";
import { startBanner } from "./start-banner";
import { startStep } from "./start-error";
import { closeStorage, openStorage, type Storage } from "./storage";
import type { ScryptCost } from "./people/passwords";
import type { WatchDomainResolver } from "./tickets/watch-domain";
import type { WebinarMetadataSource } from "./tickets/webinar-metadata";
import { startFinalizer, type Finalizer } from "./watch-data/finalize";

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
  /**
   * scrypt's cost for console passwords (default OWASP's, N = 2^17, r = 8, p = 1). Lower it only in tests: a
   * cheaper hash is cheaper to guess. Hashes of another cost are replaced at the next sign-in.
   */
  passwordCost?: ScryptCost;
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
  const { db, pool } = storage.database;
  // Metrics only when they are served: a server without WEBINAR_METRICS_PORT does no metric work at all.
  const metrics = config.metricsPort === undefined ? undefined : createServerMetrics();
  // Each part is added as it starts; shutdown stops them bottom-up (lifecycle.ts), and so does a failed start.
  const lifecycle = createLifecycle();
  lifecycle.add("storage", () => closeStorage(storage));
  try {
    const nonces = openNonceStore({
      db,
      runtime,
      redisUrl: config.redisUrl,
      redisKeyPrefix: options.redisKeyPrefix,
      custom: options.nonceStore,
      onWrite: metrics?.nonceBatchWritten,
    });
    lifecycle.add("nonce store", () => nonces.close());
    const changes = await startStep("database", () =>
      openChangeFeed(config.storage, storage.database, logger, metrics?.cacheRead),
    );
    lifecycle.add("change feed", () => changes.close());
    metrics?.watch(changes, { db, runtime, pool });
    const scrapes = metricsScrapes(metrics, config, logger);
    lifecycle.add("metrics listener", () => scrapes.close());
    // The batches are committed after the last request was answered and before the stores close.
    lifecycle.add("nonce claims", () => nonces.drain());
    let listeningPort: number | undefined;
    const { services, demo, requestLog } = await assembleServices({
      config,
      runtime,
      // Storage opened by the embedding code has no statement spans: its requests' and batches' statements are
      // run on the database as it is.
      tracing:
        options.tracer === undefined
          ? undefined
          : { tracer: options.tracer, databaseUnder: storage.traced?.under ?? (() => db) },
      fetch: options.fetch ?? globalThis.fetch,
      webinarMetadata: options.webinarMetadata,
      watchDomains: options.watchDomains,
      passwordCost: options.passwordCost,
      db,
      changes,
      nonces,
      listeningPort: () => listeningPort,
      logger,
      metrics,
    });
    lifecycle.add("heartbeat credits", () => services.heartbeats.drain());
    lifecycle.add("request log", () =>
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
    lifecycle.add("requests in flight", () => {
      if (httpServer.listening)
        logger.info({ inFlight: requests.inFlight }, "closing: no new connections, waiting for requests in flight");
      return requests.close(config.shutdownGraceMs);
    });
    lifecycle.add("pruning", startPruning(services, nonces));
    if (config.requestLogEnabled) lifecycle.add("request log retention", requestLog.startRetention());
    const finalizer = startFinalizer(db, changes, runtime, logger, config.finalizePollMs);
    lifecycle.add("finalizer", () => finalizer.stop());
    const listen = async () => {
      const listening = await listenOn(httpServer, config);
      listeningPort = listening.port;
      await scrapes.listen();
      const fields = { storage: config.storage.kind, nonceStore: nonces.kind, tracing: options.tracer !== undefined };
      logger.info({ url: listening.url, ...fields }, "listening");
      return listening;
    };
    return webinarServer({ app, services, demo, finalizer, listen, scrapes, lifecycle, logger });
  } catch (error) {
    await lifecycle.stopAll().catch(() => undefined);
    throw error;
  }
}

/** The metrics listener, opened when the server listens (and only when metrics are on). */
interface MetricsScrapes {
  readonly url: string | undefined;
  listen(): Promise<void>;
  close(): Promise<void>;
}

function metricsScrapes(metrics: ServerMetrics | undefined, config: ServerConfig, logger: Logger): MetricsScrapes {
  let listener: MetricsListener | undefined;
  return {
    get url() {
      return listener?.url;
    },
    async listen() {
      if (metrics === undefined || config.metricsPort === undefined) return;
      listener = await listenForScrapes(metrics.registry, config.metricsHost, config.metricsPort);
      logger.info({ metricsUrl: listener.url }, "metrics listening");
    },
    async close() {
      await listener?.close();
    },
  };
}

/** The handle createServerOn returns; `close()` runs the lifecycle's stops once, then flushes the log. */
function webinarServer(parts: {
  app: Hono<AppEnv>;
  services: AppServices;
  demo: DemoSeed;
  finalizer: Finalizer;
  listen: () => Promise<{ url: string; port: number }>;
  scrapes: MetricsScrapes;
  lifecycle: Lifecycle;
  logger: Logger;
}): WebinarServer {
  const { app, services, demo, finalizer, scrapes, lifecycle, logger } = parts;
  let url: string | undefined;
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
      return scrapes.url;
    },
    async listen() {
      const listening = await parts.listen();
      url = listening.url;
      return listening;
    },
    close() {
      closing ??= (async () => {
        await lifecycle.stopAll();
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
