/**
 * Assembles the server from its configuration: database (migrated), secret box, stores, verifier, app; then
 * listens and shuts down gracefully. Everything with a side effect on the outside world (clock, randomness,
 * fetch, log destination, stdout) can be injected, which is how the tests run several servers in one process.
 */
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Writable } from "node:stream";
import { createAdaptorServer } from "@hono/node-server";
import type { Hono } from "hono";
import { createRequestVerifier, type RequestVerifierOptions } from "@org/webinar-validator";
import { createApp, type AppEnv } from "./app";
import { createApiKeyStore } from "./auth/api-keys";
import { createCredentialCache, StaleCredentialError } from "./auth/credential-cache";
import { createNonceClaim } from "./auth/nonce-claim";
import { nonceRetentionMs, type ConsumingNonceStore } from "./auth/nonce-store";
import { createDatabaseNonceStore } from "./auth/nonce-store-db";
import { createRedisNonceStore } from "./auth/nonce-store-redis";
import { createSecretBox, type SecretBox } from "./auth/secret-box";
import { resolveSecretKey } from "./auth/secret-key";
import { ConfigError, type ServerConfig } from "./config";
import { lockDataDir, type DataDirLock } from "./data-dir-lock";
import { connectDatabase, type DatabaseHandle } from "./db/connect";
import { trackRequests } from "./http/graceful-close";
import { newRequestId } from "./http/respond";
import { applyConnectionLimits, httpServerOptions } from "./http/server-options";
import { createLogger, type Logger } from "./log";
import { systemRuntime, type Runtime } from "./runtime";
import { demoBanner, seedDemo, type DemoSeed } from "./seed/demo";
import { startStep } from "./start-error";
import type { AppServices } from "./services";
import { createWatchDomainResolver, type WatchDomainResolver } from "./tickets/watch-domain";
import { createWebinarMetadataSource, type WebinarMetadataSource } from "./tickets/webinar-metadata";
import { createDisplayNameModerator } from "./viewers/moderation";
import { startFinalizer, type Finalizer } from "./watch-data/finalize";
import type { DestinationStream } from "pino";

/** Replacements for the outside world; all optional. */
export interface ServerOptions {
  runtime?: Runtime;
  logger?: Logger;
  /** Where the JSON log lines go when no `logger` is given (default stdout). */
  logDestination?: DestinationStream;
  /** `fetch` of the moderation client. */
  fetch?: typeof globalThis.fetch;
  /** Start a new embedded database from this `dumpDataDir()` tarball instead of running initdb. */
  pgliteSnapshot?: Blob;
  nonceStore?: ConsumingNonceStore;
  /** Key prefix of the Redis nonce store. */
  redisKeyPrefix?: string;
  webinarMetadata?: WebinarMetadataSource;
  watchDomains?: WatchDomainResolver;
  /**
   * An open (and migrated) database to use instead of connecting to `config.storage`; the server then leaves it
   * open on close. Tests run several servers on one embedded database this way.
   */
  database?: DatabaseHandle;
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
  /** Stops accepting connections, lets requests in flight finish (up to the grace period), closes stores. */
  close(): Promise<void>;
}

/** A stored fingerprint of the key refuses a start with another key, instead of failing every signed request. */
async function checkSecretKey(database: DatabaseHandle, box: SecretBox): Promise<void> {
  await database.db
    .insertInto("server_meta")
    .values({ key: "secret_key_check", value: box.keyCheck })
    .onConflict((conflict) => conflict.column("key").doNothing())
    .execute();
  const stored = await database.db.selectFrom("server_meta").select("value").where("key", "=", "secret_key_check").executeTakeFirstOrThrow();
  if (stored.value !== box.keyCheck) {
    throw new ConfigError(
      "WEBINAR_SECRET_KEY (or the data directory's secret.key) is not the key the stored API-key secrets were encrypted with; start with the original key",
    );
  }
}

const PRUNE_INTERVAL_MS = 60_000;
/** How long an ACTIVE credential is reused (its status is still checked by every request's nonce statement). */
const CREDENTIAL_CACHE_TTL_MS = 30_000;

/**
 * Connects, migrates, seeds the demo data on first start and builds the app; does not listen yet.
 *
 * @example
 * const server = await createServer(loadConfig(process.env));
 * const { url } = await server.listen();
 */
export async function createServer(config: ServerConfig, options: ServerOptions = {}): Promise<WebinarServer> {
  const runtime = options.runtime ?? systemRuntime;
  const logger = options.logger ?? createLogger(config.logLevel, options.logDestination);
  const ownsDatabase = options.database === undefined;
  const { storage } = config;
  // Everything kept on disk (the embedded database, the key file) is used under the data directory's lock.
  const lock: DataDirLock | undefined =
    ownsDatabase && storage.kind === "pglite" && storage.dataDir !== "memory:" ? await startStep("data directory", () => lockDataDir(storage.dataDir)) : undefined;
  let database: DatabaseHandle;
  try {
    database =
      options.database ??
      (await startStep("database", () =>
        connectDatabase(storage, {
          connectTimeoutMs: config.dbConnectTimeoutMs,
          statementTimeoutMs: config.dbStatementTimeoutMs,
          poolMax: config.dbPoolMax,
          ...(options.pgliteSnapshot === undefined ? {} : { pgliteSnapshot: options.pgliteSnapshot }),
          onPoolError: (error) => logger.warn({ err: error }, "database connection lost"),
        }),
      ));
  } catch (error) {
    await lock?.release().catch(() => undefined);
    throw error;
  }
  let nonceStore: ConsumingNonceStore | undefined;
  try {
    const box = createSecretBox(await startStep("data directory", () => resolveSecretKey(config.secretKey, storage, runtime)), runtime);
    await checkSecretKey(database, box);
    const { db } = database;
    const apiKeys = createApiKeyStore(db, box, runtime);
    // The credential cache only with the database nonce store, whose statement re-checks the key and merchant
    // status every request (auth/credential-cache.ts); with Redis or another store every lookup reads the key.
    const credentials =
      options.nonceStore === undefined && config.redisUrl === undefined ? createCredentialCache(apiKeys, { ttlMs: CREDENTIAL_CACHE_TTL_MS, now: () => runtime.now() }) : undefined;
    nonceStore =
      options.nonceStore ??
      (config.redisUrl !== undefined
        ? createRedisNonceStore({ url: config.redisUrl, clockSkewSeconds: config.clockSkewSeconds, runtime, ...(options.redisKeyPrefix === undefined ? {} : { keyPrefix: options.redisKeyPrefix }) })
        : createDatabaseNonceStore(db, {
            clockSkewSeconds: config.clockSkewSeconds,
            runtime,
            ...(credentials === undefined
              ? {}
              : {
                  checkKeyActive: {
                    onStale: (apiKey, nonce) => {
                      credentials.invalidate(apiKey);
                      credentials.markStale(apiKey, nonce);
                    },
                  },
                }),
          }));
    const consumeNonce = nonceStore;
    let listeningPort: number | undefined;
    const defaultWatchOrigin = () => config.publicWatchOrigin ?? `http://127.0.0.1:${listeningPort ?? config.port}`;
    const verifierOptions: RequestVerifierOptions = {
      lookupKey: async (apiKey) => {
        const credential = await (credentials !== undefined ? credentials.find(apiKey) : apiKeys.findActive(apiKey));
        return credential === null ? undefined : { secret: credential.secret, merchantId: credential.merchantId, status: credential.merchantStatus };
      },
      nonceStore: { consume: (apiKey, nonce, expiresAtMs) => consumeNonce.consume(apiKey, nonce, expiresAtMs) },
      now: () => runtime.now(),
      limits: { clockSkewSeconds: config.clockSkewSeconds, maxBodyBytes: config.maxBodyBytes },
      allowedOrigins: config.allowedOrigins,
      createRequestId: newRequestId,
      onError: (error, source) => {
        // Not a failure: the cached credential went stale, nothing was consumed, app.ts verifies again.
        if (error instanceof StaleCredentialError) return;
        logger.warn({ err: error, source }, "authentication dependency failed");
      },
    };
    const services: AppServices = {
      config,
      db,
      runtime,
      logger,
      apiKeys,
      nonceStore: consumeNonce,
      moderator: createDisplayNameModerator(db, { url: config.moderationUrl, timeoutMs: config.moderationTimeoutMs, fetch: options.fetch ?? globalThis.fetch }),
      webinarMetadata: options.webinarMetadata ?? createWebinarMetadataSource(db),
      watchDomains: options.watchDomains ?? createWatchDomainResolver(db, defaultWatchOrigin),
      verifier: createRequestVerifier(verifierOptions),
      ...(credentials === undefined ? {} : { staleCredentials: credentials }),
      ...(credentials === undefined
        ? {}
        : {
            nonceDeferral: {
              // The same checks with the nonce left to the request's statement (auth/nonce-claim.ts, app.ts).
              options: { ...verifierOptions, nonceStore: { consume: async () => true } },
              claim: (apiKey: string, nonce: string) =>
                createNonceClaim(apiKey, nonce, runtime.now() + nonceRetentionMs(config.clockSkewSeconds), (key, value, expiresAtMs) => consumeNonce.consume(key, value, expiresAtMs)),
              invalidate: (apiKey: string) => credentials.invalidate(apiKey),
            },
          }),
      cursorKey: box.deriveKey("viewer watch cursor v1"),
    };
    const demo: DemoSeed = config.seedDemo ? await seedDemo(db, apiKeys, runtime) : { kind: "none" };

    const app = createApp(services);
    const httpServer = createAdaptorServer({ fetch: app.fetch, hostname: config.host, serverOptions: httpServerOptions(config) }) as Server;
    applyConnectionLimits(httpServer, config);
    const requests = trackRequests(httpServer);

    const prune = setInterval(() => {
      const now = new Date(runtime.now());
      void Promise.all([
        consumeNonce.prune(),
        db.deleteFrom("watch_sessions").where("expires_at", "<", now).execute(),
        // Tickets stay a day after expiry (for support questions), then go, whatever their state.
        db.deleteFrom("login_tickets").where("expires_at", "<", new Date(now.getTime() - 86_400_000)).execute(),
      ]).catch((error: unknown) => logger.warn({ err: error }, "pruning expired rows failed"));
    }, PRUNE_INTERVAL_MS);
    prune.unref();
    const finalizer = startFinalizer(db, runtime, logger, config.finalizePollMs);

    let url: string | undefined;
    let closing: Promise<void> | undefined;
    const server: WebinarServer = {
      app,
      services,
      demo,
      finalizer,
      get url() {
        if (url === undefined) throw new Error("the server is not listening yet");
        return url;
      },
      async listen() {
        await startStep("listen", () =>
          new Promise<void>((resolve, reject) => {
            httpServer.once("error", reject);
            httpServer.listen(config.port, config.host, () => {
              httpServer.off("error", reject);
              resolve();
            });
          }),
        );
        listeningPort = (httpServer.address() as AddressInfo).port;
        const host = config.host === "0.0.0.0" || config.host === "::" ? "127.0.0.1" : config.host.includes(":") ? `[${config.host}]` : config.host;
        url = `http://${host}:${listeningPort}`;
        logger.info({ url, storage: config.storage.kind, nonceStore: config.redisUrl !== undefined && options.nonceStore === undefined ? "redis" : "database" }, "listening");
        return { url, port: listeningPort };
      },
      close() {
        closing ??= (async () => {
          clearInterval(prune);
          await finalizer.stop();
          if (httpServer.listening) logger.info({ inFlight: requests.inFlight }, "closing: no new connections, waiting for requests in flight");
          await requests.close(config.shutdownGraceMs);
          await consumeNonce.close?.();
          if (ownsDatabase) await database.close();
          await lock?.release();
          logger.info("closed");
          // The log is written asynchronously: make sure the last lines are out before the process may exit.
          await new Promise<void>((resolve) => logger.flush(() => resolve()));
        })();
        return closing;
      },
    };
    return server;
  } catch (error) {
    await nonceStore?.close?.().catch(() => undefined);
    if (ownsDatabase) await database.close().catch(() => undefined);
    await lock?.release().catch(() => undefined);
    throw error;
  }
}

/**
 * Creates the server, listens, and prints the start banner to `stdout` (the demo credentials on the first start
 * only). Used by main.ts and by tests that check the banner.
 */
export async function startServer(config: ServerConfig, options: ServerOptions & { stdout?: Writable } = {}): Promise<WebinarServer> {
  const server = await createServer(config, options);
  try {
    const { url } = await server.listen();
    (options.stdout ?? process.stdout).write(demoBanner(server.demo, url));
  } catch (error) {
    await server.close();
    throw error;
  }
  return server;
}
