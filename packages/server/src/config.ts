/**
 * The server's configuration, read once from the environment (the start interface in README.md). Every value is
 * checked here so a typo fails the start with a message naming the variable, instead of a surprise later.
 * Defaults for the clock skew and the body limit come from the spec's `x-limits`, never from literals here.
 */
import path from "node:path";
import { limits } from "@org/webinar-types";
import { NO_TRUSTED_PROXIES, parseTrustedProxies, type TrustedProxies } from "./http/client-address";

/**
 * The interval the watch page is asked to send heartbeats at, unless WEBINAR_HEARTBEAT_INTERVAL_SECONDS sets
 * another; credit per heartbeat is capped at twice it (watch-data/crediting-rules.ts).
 */
export const HEARTBEAT_INTERVAL_SECONDS = 15;

/** Where the data lives: the embedded PGlite (a directory or in memory) or an external PostgreSQL. */
export type StorageConfig = { kind: "pglite"; dataDir: string | "memory:" } | { kind: "postgres"; databaseUrl: string };

export type LogFormat = "pretty" | "json" | "auto";

export interface ServerConfig {
  /** TCP port; 0 picks a free one (tests). */
  port: number;
  host: string;
  storage: StorageConfig;
  /** Bearer token of the admin API; when undefined the admin API answers every request 401. */
  adminToken: string | undefined;
  ticketTtlSeconds: number;
  clockSkewSeconds: number;
  maxBodyBytes: number;
  /** Origin of the watch page used in `loginUrl` when a merchant has no custom watch domain; undefined: `http://127.0.0.1:<port>`. */
  publicWatchOrigin: string | undefined;
  /** Browser origins allowed to call the Open API (CORS); empty: none. */
  allowedOrigins: readonly string[];
  /** 32-byte key for API-key secrets at rest; undefined: the key file of the data directory (or a random key for `memory:`). */
  secretKey: Buffer | undefined;
  /** Redis for the nonce store (`redis://...`); undefined: the database stores nonces. */
  redisUrl: string | undefined;
  /** External display-name moderation endpoint; undefined: only the blocked-terms list. */
  moderationUrl: string | undefined;
  moderationTimeoutMs: number;
  /** The UID range new viewers draw from; the spec's range unless narrowed (tests of VIEWER_UID_EXHAUSTED). */
  uidMin: number;
  uidMax: number;
  /** Lifetime of the watch-page session cookie set by the ticket exchange. */
  sessionTtlSeconds: number;
  /**
   * The watch page's heartbeat interval, announced by the state and each playback start; one heartbeat credits at
   * most twice it. Shorter than the default only to make browser tests of the crediting quick.
   */
  heartbeatIntervalSeconds: number;
  /**
   * Database time limits: connecting or waiting for a pooled connection, and each statement (server-side
   * `statement_timeout`, and a client-side limit a little above it for a database that stops answering). An
   * unavailable database gives a 503 within them, never a hang.
   */
  dbConnectTimeoutMs: number;
  dbStatementTimeoutMs: number;
  dbPoolMax: number;
  /** Create and print the demo merchant on the first start with an empty database. */
  seedDemo: boolean;
  logLevel: string;
  /** `pretty`: readable lines; `json`: one JSON object per line; `auto`: pretty on a terminal, JSON otherwise. */
  logFormat: LogFormat;
  /** Time limit for a client to send the request headers (slow clients hold no connection longer). */
  headersTimeoutMs: number;
  /** Time limit for a client to send a whole request, headers and body. */
  requestTimeoutMs: number;
  /** How long an idle keep-alive connection is kept open. */
  keepAliveTimeoutMs: number;
  /** Largest request header block accepted (larger: 431). */
  maxHeaderBytes: number;
  /** Most connections open at once; more are closed as they arrive. */
  maxConnections: number;
  /** How long SIGTERM waits for in-flight requests before closing anyway. */
  shutdownGraceMs: number;
  /** Grace between the end (cancel, failure) of a live and the background finalization of its data. */
  finalizeGraceSeconds: number;
  /** How often each process looks for due finalizations. */
  finalizePollMs: number;
  /**
   * The Prometheus metrics listener (`GET /metrics`), never the public port: its port (0: a free one), undefined
   * when metrics are off, and its address.
   */
  metricsPort: number | undefined;
  metricsHost: string;
  /**
   * The server's own origin as browsers reach it (the console's invite links and its Origin check); undefined:
   * the origin of each request's Host header (invite links: `http://127.0.0.1:<port>`).
   */
  publicOrigin: string | undefined;
  /** How long a console invite link can be used. */
  consoleInviteTtlSeconds: number;
  /** A console session ends after this long without a request (each request slides it)... */
  consoleSessionIdleSeconds: number;
  /** ...and at the latest this long after sign-in (never less than the idle time). */
  consoleSessionMaxSeconds: number;
  /**
   * The reverse proxies whose `X-Forwarded-For` names the client (the console's sign-in throttle and sessions);
   * none: the socket's peer is the client.
   */
  trustedProxies: TrustedProxies;
  /** How many console passwords are hashed at once in this process (scrypt: 128 MiB and a pool thread each). */
  consolePasswordHashesAtOnce: number;
  /** How many exports and chart queries of one merchant run at once in this process; more answer 429. */
  consoleHeavyReadsPerMerchant: number;
  /** Whether the Open API's requests are written to the console's request log. */
  requestLogEnabled: boolean;
  /** Request-log rows older than this are deleted. */
  requestLogRetentionDays: number;
  /**
   * At most this many request-log rows are kept per merchant and per class (the newest): as many of its verified
   * requests, and as many again of those refused before a signature checked out.
   */
  requestLogMaxRowsPerMerchant: number;
  /** At most this many unverified requests of one API key are logged per minute by this process; the rest are counted. */
  requestLogUnverifiedPerKeyPerMinute: number;
  /** How often the request log's retention runs, in seconds. */
  requestLogPruneSeconds: number;
}

/** The admin token guards the whole merchant console: a shorter one is refused at start. */
export const MIN_ADMIN_TOKEN_LENGTH = 8;

/** A configuration problem, reported at start with the variable's name. */
export class ConfigError extends Error {
  override readonly name = "ConfigError";
}

type Env = Readonly<Record<string, string | undefined>>;

function text(env: Env, name: string): string | undefined {
  const value = env[name]?.trim();
  return value === undefined || value === "" ? undefined : value;
}

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = text(env, name);
  if (raw === undefined) return fallback;
  if (!/^[0-9]+$/.test(raw)) throw new ConfigError(`${name} must be a whole number, got ${JSON.stringify(raw)}`);
  const value = Number(raw);
  if (value < min || value > max) throw new ConfigError(`${name} must be between ${min} and ${max}, got ${value}`);
  return value;
}

function boolean(env: Env, name: string, fallback: boolean): boolean {
  const raw = text(env, name)?.toLowerCase();
  if (raw === undefined) return fallback;
  if (["1", "true", "yes", "on"].includes(raw)) return true;
  if (["0", "false", "no", "off"].includes(raw)) return false;
  throw new ConfigError(`${name} must be true or false, got ${JSON.stringify(raw)}`);
}

function oneOf<const Choice extends string>(
  env: Env,
  name: string,
  choices: readonly Choice[],
  fallback: Choice,
): Choice {
  const raw = text(env, name)?.toLowerCase();
  if (raw === undefined) return fallback;
  const choice = choices.find((candidate) => candidate === raw);
  if (choice === undefined)
    throw new ConfigError(`${name} must be one of ${choices.join(", ")}, got ${JSON.stringify(raw)}`);
  return choice;
}

/** Parses an origin (`scheme://host[:port]`, no path) and returns it normalized, or throws naming the variable. */
export function parseOrigin(raw: string, name: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`${name} must be an origin such as https://watch.example.com, got ${JSON.stringify(raw)}`);
  }
  if (
    (url.protocol !== "http:" && url.protocol !== "https:") ||
    (url.pathname !== "/" && url.pathname !== "") ||
    url.search ||
    url.hash ||
    url.username
  ) {
    throw new ConfigError(
      `${name} must be an http(s) origin without path, query or credentials, got ${JSON.stringify(raw)}`,
    );
  }
  return url.origin;
}

/** Accepts a 32-byte key as 64 hex characters or as (url-safe) Base64. */
export function parseSecretKey(raw: string, name = "WEBINAR_SECRET_KEY"): Buffer {
  const key = /^[0-9a-fA-F]{64}$/.test(raw) ? Buffer.from(raw, "hex") : Buffer.from(raw, "base64");
  if (key.length !== 32 || (!/^[0-9a-fA-F]{64}$/.test(raw) && !/^[A-Za-z0-9+/_-]{43}=?$/.test(raw))) {
    throw new ConfigError(
      `${name} must be 32 random bytes as 64 hex characters or Base64 (e.g. \`openssl rand -hex 32\`)`,
    );
  }
  return key;
}

/** Where the data is kept (DATABASE_URL, else WEBINAR_DATA_DIR) and the key its secrets are sealed with. */
function storageFrom(env: Env, cwd: string): Pick<ServerConfig, "storage" | "secretKey"> {
  const databaseUrl = text(env, "DATABASE_URL");
  if (databaseUrl !== undefined && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new ConfigError("DATABASE_URL must be a postgres:// or postgresql:// URL");
  }
  // The value is never repeated in the message: it may carry a password.
  if (databaseUrl !== undefined && !URL.canParse(databaseUrl)) {
    throw new ConfigError(
      "DATABASE_URL is not a valid URL; the form is postgres://user:password@host:port/database (percent-encode special characters)",
    );
  }
  const dataDirRaw = text(env, "WEBINAR_DATA_DIR");
  const storage: StorageConfig =
    databaseUrl !== undefined
      ? { kind: "postgres", databaseUrl }
      : { kind: "pglite", dataDir: dataDirRaw === "memory:" ? "memory:" : path.resolve(cwd, dataDirRaw ?? ".data") };

  const secretKeyRaw = text(env, "WEBINAR_SECRET_KEY");
  const secretKey = secretKeyRaw === undefined ? undefined : parseSecretKey(secretKeyRaw);
  if (storage.kind === "postgres" && secretKey === undefined) {
    throw new ConfigError(
      "WEBINAR_SECRET_KEY is required with DATABASE_URL: it encrypts API-key secrets at rest and every server process must share it (generate one with `openssl rand -hex 32`)",
    );
  }
  return { storage, secretKey };
}

/**
 * Reads the configuration from environment variables (every variable is listed in README.md). `cwd` resolves
 * the default data directory `./.data`.
 *
 * @example
 * const config = loadConfig(process.env);
 */
export function loadConfig(env: Env, cwd: string = process.cwd()): ServerConfig {
  const { storage, secretKey } = storageFrom(env, cwd);

  const uidMin = integer(env, "WEBINAR_UID_MIN", limits.uidMin, limits.uidMin, limits.uidMax);
  const uidMax = integer(env, "WEBINAR_UID_MAX", limits.uidMax, limits.uidMin, limits.uidMax);
  if (uidMin > uidMax) throw new ConfigError(`WEBINAR_UID_MIN (${uidMin}) must not exceed WEBINAR_UID_MAX (${uidMax})`);

  const watchOrigin = text(env, "WEBINAR_PUBLIC_WATCH_ORIGIN");
  const publicOrigin = text(env, "WEBINAR_PUBLIC_ORIGIN");
  const allowedOrigins = (text(env, "WEBINAR_ALLOWED_ORIGINS") ?? "")
    .split(",")
    .map((origin) => origin.trim())
    .filter((origin) => origin !== "")
    .map((origin) => parseOrigin(origin, "WEBINAR_ALLOWED_ORIGINS"));

  const moderationUrl = text(env, "WEBINAR_MODERATION_URL");
  if (moderationUrl !== undefined && !/^https?:\/\//.test(moderationUrl)) {
    throw new ConfigError("WEBINAR_MODERATION_URL must be an http(s) URL");
  }

  const adminToken = text(env, "WEBINAR_ADMIN_TOKEN");
  if (adminToken !== undefined && adminToken.length < MIN_ADMIN_TOKEN_LENGTH) {
    throw new ConfigError(
      `WEBINAR_ADMIN_TOKEN must be at least ${MIN_ADMIN_TOKEN_LENGTH} characters (got ${adminToken.length}); generate one with \`openssl rand -hex 16\``,
    );
  }

  const headersTimeoutMs = integer(env, "WEBINAR_HEADERS_TIMEOUT_MS", 10_000, 1000, 600_000);
  const requestTimeoutMs = integer(env, "WEBINAR_REQUEST_TIMEOUT_MS", 30_000, 1000, 3_600_000);
  if (headersTimeoutMs > requestTimeoutMs) {
    throw new ConfigError(
      `WEBINAR_HEADERS_TIMEOUT_MS (${headersTimeoutMs}) must not exceed WEBINAR_REQUEST_TIMEOUT_MS (${requestTimeoutMs})`,
    );
  }

  const consoleSessionIdleSeconds = integer(env, "WEBINAR_CONSOLE_SESSION_IDLE_SECONDS", 12 * 3600, 60, 30 * 86_400);
  const consoleSessionMaxSeconds = integer(env, "WEBINAR_CONSOLE_SESSION_MAX_SECONDS", 30 * 86_400, 60, 365 * 86_400);
  if (consoleSessionIdleSeconds > consoleSessionMaxSeconds) {
    throw new ConfigError(
      `WEBINAR_CONSOLE_SESSION_IDLE_SECONDS (${consoleSessionIdleSeconds}) must not exceed WEBINAR_CONSOLE_SESSION_MAX_SECONDS (${consoleSessionMaxSeconds}): a session ends at the absolute limit however recently it was used`,
    );
  }

  const trustedProxiesRaw = text(env, "WEBINAR_TRUSTED_PROXIES");
  const trustedProxies = trustedProxiesRaw === undefined ? NO_TRUSTED_PROXIES : parseTrustedProxies(trustedProxiesRaw);
  if ("invalid" in trustedProxies) {
    throw new ConfigError(
      `WEBINAR_TRUSTED_PROXIES must be a comma-separated list of IP addresses and CIDR ranges (such as 10.0.0.0/8); not one: ${trustedProxies.invalid.map((entry) => JSON.stringify(entry)).join(", ")}`,
    );
  }

  return {
    port: integer(env, "PORT", 8080, 0, 65535),
    host: text(env, "HOST") ?? "127.0.0.1",
    storage,
    adminToken,
    ticketTtlSeconds: integer(env, "WEBINAR_TICKET_TTL_SECONDS", limits.loginTicketTtlSecondsExample, 1, 86_400),
    clockSkewSeconds: integer(env, "WEBINAR_CLOCK_SKEW_SECONDS", limits.clockSkewSeconds, 1, 86_400),
    maxBodyBytes: integer(env, "WEBINAR_MAX_BODY_BYTES", limits.maxBodyBytes, 1024, 64 * 1024 * 1024),
    publicWatchOrigin: watchOrigin === undefined ? undefined : parseOrigin(watchOrigin, "WEBINAR_PUBLIC_WATCH_ORIGIN"),
    allowedOrigins,
    secretKey,
    redisUrl: text(env, "REDIS_URL"),
    moderationUrl,
    moderationTimeoutMs: integer(env, "WEBINAR_MODERATION_TIMEOUT_MS", 2000, 50, 60_000),
    uidMin,
    uidMax,
    sessionTtlSeconds: integer(env, "WEBINAR_SESSION_TTL_SECONDS", 12 * 3600, 60, 30 * 86_400),
    heartbeatIntervalSeconds: integer(env, "WEBINAR_HEARTBEAT_INTERVAL_SECONDS", HEARTBEAT_INTERVAL_SECONDS, 1, 300),
    dbConnectTimeoutMs: integer(env, "WEBINAR_DB_CONNECT_TIMEOUT_MS", 2000, 100, 60_000),
    dbStatementTimeoutMs: integer(env, "WEBINAR_DB_STATEMENT_TIMEOUT_MS", 1500, 100, 600_000),
    dbPoolMax: integer(env, "WEBINAR_DB_POOL_MAX", 10, 1, 1000),
    seedDemo: boolean(env, "WEBINAR_SEED_DEMO", true),
    logLevel: text(env, "WEBINAR_LOG_LEVEL") ?? "info",
    logFormat: oneOf(env, "WEBINAR_LOG_FORMAT", ["auto", "pretty", "json"] as const, "auto"),
    headersTimeoutMs,
    requestTimeoutMs,
    keepAliveTimeoutMs: integer(env, "WEBINAR_KEEP_ALIVE_TIMEOUT_MS", 5000, 1, 600_000),
    maxHeaderBytes: integer(env, "WEBINAR_MAX_HEADER_BYTES", 16_384, 1024, 1_048_576),
    maxConnections: integer(env, "WEBINAR_MAX_CONNECTIONS", 1000, 1, 1_000_000),
    shutdownGraceMs: integer(env, "WEBINAR_SHUTDOWN_GRACE_MS", 10_000, 0, 600_000),
    finalizeGraceSeconds: integer(env, "WEBINAR_FINALIZE_GRACE_SECONDS", 120, 0, 7 * 86_400),
    finalizePollMs: integer(env, "WEBINAR_FINALIZE_POLL_MS", 5000, 10, 3_600_000),
    metricsPort:
      text(env, "WEBINAR_METRICS_PORT") === undefined ? undefined : integer(env, "WEBINAR_METRICS_PORT", 0, 0, 65535),
    metricsHost: text(env, "WEBINAR_METRICS_HOST") ?? "127.0.0.1",
    publicOrigin: publicOrigin === undefined ? undefined : parseOrigin(publicOrigin, "WEBINAR_PUBLIC_ORIGIN"),
    consoleInviteTtlSeconds: integer(env, "WEBINAR_CONSOLE_INVITE_TTL_SECONDS", 7 * 86_400, 60, 90 * 86_400),
    consoleSessionIdleSeconds,
    consoleSessionMaxSeconds,
    trustedProxies,
    consolePasswordHashesAtOnce: integer(env, "WEBINAR_CONSOLE_PASSWORD_HASHES_AT_ONCE", 2, 1, 64),
    consoleHeavyReadsPerMerchant: integer(env, "WEBINAR_CONSOLE_HEAVY_READS_PER_MERCHANT", 4, 1, 1000),
    requestLogEnabled: boolean(env, "WEBINAR_REQUEST_LOG", true),
    requestLogRetentionDays: integer(env, "WEBINAR_REQUEST_LOG_RETENTION_DAYS", 7, 1, 365),
    requestLogMaxRowsPerMerchant: integer(env, "WEBINAR_REQUEST_LOG_MAX_ROWS", 100_000, 100, 100_000_000),
    requestLogUnverifiedPerKeyPerMinute: integer(env, "WEBINAR_REQUEST_LOG_UNVERIFIED_PER_MINUTE", 60, 0, 1_000_000),
    requestLogPruneSeconds: integer(env, "WEBINAR_REQUEST_LOG_PRUNE_SECONDS", 30, 1, 86_400),
  };
}
