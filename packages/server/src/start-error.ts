/**
 * A start that fails says in ONE line what failed and which setting to change, never with a stack trace: the
 * person reading it is an operator, not a debugger. Each step of the start that touches the outside world (the
 * data directory, the database, the listening socket) runs through `startStep`, which labels its failure; the
 * label and the error's code decide the line.
 */
import { ConfigError, type ServerConfig } from "./config";
import { DataDirLockedError } from "./data-dir-lock";

/** The steps of a start that can fail because of the machine or a setting. */
export type StartStage = "data directory" | "database" | "listen" | "metrics listen";

/** A failure of one start step, with the error that caused it. */
export class StartStepError extends Error {
  override readonly name = "StartStepError";
  constructor(
    readonly stage: StartStage,
    override readonly cause: unknown,
  ) {
    super(`${stage}: ${cause instanceof Error ? cause.message : String(cause)}`);
  }
}

/**
 * Runs one start step; its failure is labelled with the stage (configuration errors and a held data directory
 * pass as they are: they already say what to change).
 *
 * @example
 * const database = await startStep("database", () => connectDatabase(storage, options));
 */
export async function startStep<T>(stage: StartStage, step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    if (error instanceof ConfigError || error instanceof DataDirLockedError || error instanceof StartStepError)
      throw error;
    throw new StartStepError(stage, error);
  }
}

interface SystemErrorLike {
  code?: unknown;
  message?: unknown;
}

/** The code of the error or of the first error in its `cause` chain that has one (a wrapped driver error). */
function codeOf(error: unknown): string | undefined {
  for (
    let current = error, depth = 0;
    current !== null && typeof current === "object" && depth < 8;
    current = (current as { cause?: unknown }).cause, depth += 1
  ) {
    const code = (current as SystemErrorLike).code;
    if (typeof code === "string") return code;
  }
  return undefined;
}

/** The first line of an error's message, without the stack. */
function firstLine(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split("\n", 1)[0]!.trim();
}

const FILE_SYSTEM_REASONS: Record<string, string> = {
  EACCES: "permission denied",
  EPERM: "operation not permitted",
  EROFS: "the file system is read-only",
  ENOTDIR: "a part of the path is not a directory",
  ENOSPC: "no space left on the device",
  EEXIST: "a file is in the way",
};

const LISTEN_REASONS: Record<string, string> = {
  EADDRINUSE: "the address is already in use",
  EACCES: "permission denied (ports below 1024 need privileges)",
  EADDRNOTAVAIL: "HOST is not an address of this machine",
  ENOTFOUND: "HOST does not resolve",
  EAI_AGAIN: "HOST does not resolve",
};

// Connection failures (no SQLSTATE) and the SQLSTATEs of a refused connection.
const DATABASE_REASONS: Record<string, string> = {
  ECONNREFUSED: "connection refused (is PostgreSQL running on that host and port?)",
  ECONNRESET: "the connection was reset",
  ENOTFOUND: "the host does not resolve",
  EAI_AGAIN: "the host does not resolve",
  ETIMEDOUT: "no answer (timed out)",
  EHOSTUNREACH: "the host is unreachable",
  "28P01": "password authentication failed",
  "28000": "the server refused the login",
  "3D000": "the database does not exist",
  "53300": "the server has too many connections",
  "57P03": "the server is starting up or shutting down",
  "42501": "permission denied",
};

/** `host:port/database` of a PostgreSQL URL: never its user name or password. */
function databaseAddress(databaseUrl: string): string {
  try {
    const url = new URL(databaseUrl);
    return `${url.hostname || "localhost"}:${url.port || "5432"}${url.pathname}`;
  } catch {
    return "the configured server";
  }
}

function databaseReason(cause: unknown): string {
  const code = codeOf(cause);
  const known = code === undefined ? undefined : DATABASE_REASONS[code];
  if (known !== undefined) return known;
  const text = firstLine(cause);
  if (/timeout/i.test(text)) return "no answer within WEBINAR_DB_CONNECT_TIMEOUT_MS";
  return code !== undefined && /^[0-9A-Z]{5}$/.test(code) ? `${text} (SQLSTATE ${code})` : text;
}

function describeStep(error: StartStepError, config: ServerConfig): string {
  const code = codeOf(error.cause);
  const dataDir = config.storage.kind === "pglite" ? config.storage.dataDir : undefined;
  switch (error.stage) {
    case "data directory": {
      const reason = (code !== undefined ? FILE_SYSTEM_REASONS[code] : undefined) ?? firstLine(error.cause);
      return `cannot use the data directory ${dataDir}: ${reason}; set WEBINAR_DATA_DIR to a directory this user can write`;
    }
    case "database":
      if (config.storage.kind === "postgres") {
        return `cannot use the PostgreSQL database at ${databaseAddress(config.storage.databaseUrl)}: ${databaseReason(error.cause)}; check DATABASE_URL`;
      }
      return `cannot open the embedded database in ${dataDir}: ${firstLine(error.cause)}; set WEBINAR_DATA_DIR to another directory (or restore this one)`;
    case "listen": {
      const reason = (code !== undefined ? LISTEN_REASONS[code] : undefined) ?? firstLine(error.cause);
      return `cannot listen on ${config.host}:${config.port}: ${reason}; set PORT (or HOST) to a free address`;
    }
    case "metrics listen": {
      const reason =
        (code !== undefined ? LISTEN_REASONS[code]?.replace(/^HOST/, "WEBINAR_METRICS_HOST") : undefined) ??
        firstLine(error.cause);
      return `cannot listen for metrics on ${config.metricsHost}:${config.metricsPort}: ${reason}; set WEBINAR_METRICS_PORT (or WEBINAR_METRICS_HOST) to a free address`;
    }
  }
}

/**
 * The one line (without the `webinar-server: ` prefix and newline) that reports a failed start. `config` is
 * undefined when reading the configuration itself failed.
 *
 * @example
 * describeStartError(error, config);
 * // "cannot listen on 127.0.0.1:8080: the address is already in use; set PORT (or HOST) to a free address"
 */
export function describeStartError(error: unknown, config: ServerConfig | undefined): string {
  if (error instanceof ConfigError) return `configuration error: ${firstLine(error)}`;
  if (error instanceof DataDirLockedError) return firstLine(error);
  if (error instanceof StartStepError && config !== undefined) return describeStep(error, config);
  return `failed to start: ${firstLine(error)}`;
}
