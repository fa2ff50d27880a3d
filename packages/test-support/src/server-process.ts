/**
 * The reference server as operators run it: its command (the built `dist/main.js`, or an installed bin under a
 * runtime) in a child process, configured by the environment only, talked to over HTTP. Every package's tests
 * start it here, so they treat the server as a black box and keep guarding its behaviour whatever its insides
 * become. The caller names the command: this package knows no server build, which keeps the workspace's graph
 * free of circles.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { type AdminClient, createAdminClient } from "./admin-client";
import { createPostgresDatabase, type PostgresDatabase } from "./postgres-database";

export interface ServerProcessOptions {
  /** The program and its arguments: `[process.execPath, ".../dist/main.js"]`, or a runtime and an installed bin. */
  command: readonly string[];
  /**
   * The server's environment, over these defaults: any free port, a random admin token and secret key, no demo
   * data, info logs, the embedded database in memory. Nothing else of the test process's environment but PATH.
   */
  env?: Record<string, string | undefined>;
  /** `"postgres"`: a new database on the machine's PostgreSQL, dropped when the server stops. */
  database?: "embedded" | "postgres";
  /** Names the PostgreSQL database, to tell which test left one behind. */
  label?: string;
  cwd?: string;
  /** How long the server may take to listen (default 90 s). */
  timeoutMs?: number;
}

export interface ServerProcess {
  readonly child: ChildProcess;
  readonly pid: number;
  /** The base URL it listens on, without a trailing slash. */
  readonly url: string;
  /** The admin API with the server's token. */
  readonly admin: AdminClient;
  readonly adminToken: string;
  /** The PostgreSQL database made for it, with `database: "postgres"`. */
  readonly database: PostgresDatabase | undefined;
  /** Everything written to stdout (JSON log lines and the start banner) and stderr so far. */
  readonly stdout: string[];
  readonly stderr: string[];
  /** stdout and stderr as one text, for a failing test's message. */
  output(): string;
  /** The JSON log records written so far. */
  logs(): Record<string, unknown>[];
  /** Resolves with the exit code (or the signal's name) once the process has exited. */
  readonly exited: Promise<number | string>;
  /** Sends `signal` (default SIGTERM), waits for the exit (SIGKILL after 30 s) and drops its database. */
  stop(signal?: NodeJS.Signals): Promise<number | string>;
}

export interface FinishedProcess {
  code: number | string;
  stdout: string;
  stderr: string;
}

/** The environment of a test server: the options' over the defaults. */
function serverEnvironment(options: ServerProcessOptions, databaseUrl: string | undefined): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    PORT: "0",
    WEBINAR_ADMIN_TOKEN: randomBytes(16).toString("hex"),
    WEBINAR_SECRET_KEY: randomBytes(32).toString("hex"),
    WEBINAR_SEED_DEMO: "false",
    WEBINAR_LOG_LEVEL: "info",
    ...options.env,
  };
  if (databaseUrl !== undefined) env.DATABASE_URL = databaseUrl;
  else if (env.DATABASE_URL === undefined && env.WEBINAR_DATA_DIR === undefined) env.WEBINAR_DATA_DIR = "memory:";
  for (const [name, value] of Object.entries(env)) if (value === undefined) delete env[name];
  return env;
}

function launch(options: ServerProcessOptions, env: NodeJS.ProcessEnv) {
  const [program, ...args] = options.command;
  const script = args.find((arg) => arg.endsWith(".js"));
  if (program === undefined) throw new Error("no command to start the server with");
  if (script !== undefined && !existsSync(script)) throw new Error(`${script} is missing: run pnpm build first`);
  const child = spawn(program, args, { cwd: options.cwd, env, stdio: ["ignore", "pipe", "pipe"] });
  const stdout: string[] = [];
  const stderr: string[] = [];
  child.stdout!.setEncoding("utf8").on("data", (chunk: string) => stdout.push(chunk));
  child.stderr!.setEncoding("utf8").on("data", (chunk: string) => stderr.push(chunk));
  const exited = new Promise<number | string>((resolve) =>
    child.once("exit", (code, signal) => resolve(code ?? signal ?? "unknown")),
  );
  return { child, stdout, stderr, exited };
}

function records(stdout: string[]): Record<string, unknown>[] {
  return stdout
    .join("")
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** Resolves with the URL the start banner names; rejects with the output when the process exits first. */
function listening(started: ReturnType<typeof launch>, timeoutMs: number): Promise<string> {
  const { child, stdout, stderr, exited } = started;
  return new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`the server did not listen within ${timeoutMs} ms:\n${stdout.join("")}${stderr.join("")}`));
    }, timeoutMs);
    // The start banner names the URL (the log line may be filtered out by WEBINAR_LOG_LEVEL).
    const look = () => {
      const url = /listening on (http:\/\/\S+)/.exec(stdout.join(""))?.[1];
      if (url === undefined) return;
      clearTimeout(timer);
      child.stdout!.off("data", look);
      resolve(url.replace(/\/$/, ""));
    };
    child.stdout!.on("data", look);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`the server exited (${code}) before listening:\n${stdout.join("")}${stderr.join("")}`));
    });
  });
}

/** Starts a server process and waits until it listens; rejects with its output when it exits first. */
export async function startServerProcess(options: ServerProcessOptions): Promise<ServerProcess> {
  const database =
    options.database === "postgres" ? await createPostgresDatabase(options.label ?? "server") : undefined;
  const env = serverEnvironment(options, database?.url);
  const started = launch(options, env);
  const { child, stdout, stderr, exited } = started;
  let url: string;
  try {
    url = await listening(started, options.timeoutMs ?? 90_000);
  } catch (error) {
    await database?.drop();
    throw error;
  }
  const adminToken = env.WEBINAR_ADMIN_TOKEN ?? "";
  return {
    child,
    pid: child.pid!,
    url,
    admin: createAdminClient(url, adminToken),
    adminToken,
    database,
    stdout,
    stderr,
    output: () => stdout.join("") + stderr.join(""),
    logs: () => records(stdout),
    exited,
    async stop(signal = "SIGTERM") {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      const timer = setTimeout(() => child.kill("SIGKILL"), 30_000);
      const code = await exited;
      clearTimeout(timer);
      await database?.drop();
      return code;
    },
  };
}

/** Runs the server until it exits by itself (a start that fails); kills it after `timeoutMs` (default 30 s). */
export async function runServerUntilExit(options: ServerProcessOptions): Promise<FinishedProcess> {
  const started = launch(options, serverEnvironment(options, undefined));
  const timer = setTimeout(() => started.child.kill("SIGKILL"), options.timeoutMs ?? 30_000);
  const code = await started.exited;
  clearTimeout(timer);
  return { code, stdout: started.stdout.join(""), stderr: started.stderr.join("") };
}
