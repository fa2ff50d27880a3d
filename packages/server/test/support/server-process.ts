/**
 * The server as operators run it: `node packages/server/dist/main.js` (built by `pnpm build`, which `pnpm test`
 * runs first) in a child process, configured by the environment only, talked to over HTTP. These tests treat the
 * server as a black box, so they keep guarding its behaviour whatever its insides become.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { createPostgresDatabase } from "./databases";
import { ADMIN_TOKEN, SECRET_KEY } from "./harness";

/** The built command-line entry. */
export const SERVER_MAIN = fileURLToPath(new URL("../../dist/main.js", import.meta.url));

export interface ServerProcess {
  readonly child: ChildProcess;
  readonly pid: number;
  /** The base URL once listening. */
  readonly url: string;
  /** Everything written to stdout (JSON log lines and the start banner) and stderr so far. */
  readonly stdout: string[];
  readonly stderr: string[];
  /** The JSON log records written so far. */
  logs(): Record<string, unknown>[];
  /** Resolves with the exit code (or the signal's name) once the process has exited. */
  readonly exited: Promise<number | string>;
  /** Sends `signal` (default SIGTERM) and waits for the exit. */
  stop(signal?: NodeJS.Signals): Promise<number | string>;
}

export interface FinishedProcess {
  code: number | string;
  stdout: string;
  stderr: string;
}

/** Environment of a test server: any free port, the test admin token and key, no demo data, info logs. */
export function serverEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  return {
    PATH: process.env.PATH,
    PORT: "0",
    WEBINAR_ADMIN_TOKEN: ADMIN_TOKEN,
    WEBINAR_SECRET_KEY: SECRET_KEY,
    WEBINAR_SEED_DEMO: "false",
    WEBINAR_LOG_LEVEL: "info",
    ...env,
  };
}

function launch(env: NodeJS.ProcessEnv): {
  child: ChildProcess;
  stdout: string[];
  stderr: string[];
  exited: Promise<number | string>;
} {
  if (!existsSync(SERVER_MAIN)) throw new Error(`${SERVER_MAIN} is missing: run pnpm build first (pnpm test does)`);
  const child = spawn(process.execPath, [SERVER_MAIN], { env, stdio: ["ignore", "pipe", "pipe"] });
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

/** Starts a server process and waits until it listens; rejects with its output when it exits first. */
export async function startServerProcess(env: Record<string, string>, timeoutMs = 60_000): Promise<ServerProcess> {
  const { child, stdout, stderr, exited } = launch(serverEnv(env));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`the server did not listen within ${timeoutMs} ms:\n${stdout.join("")}${stderr.join("")}`));
    }, timeoutMs);
    // The start banner names the URL (the log line may be filtered out by WEBINAR_LOG_LEVEL).
    const look = () => {
      const listening = /listening on (http:\/\/\S+)/.exec(stdout.join(""));
      if (listening !== null) {
        clearTimeout(timer);
        child.stdout!.off("data", look);
        resolve(listening[1]!);
      }
    };
    child.stdout!.on("data", look);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`the server exited (${code}) before listening:\n${stdout.join("")}${stderr.join("")}`));
    });
  });
  return {
    child,
    pid: child.pid!,
    url,
    stdout,
    stderr,
    logs: () => records(stdout),
    exited,
    async stop(signal = "SIGTERM") {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

/** Runs the server with `env` until it exits by itself (a start that fails); kills it after `timeoutMs`. */
export async function runServerUntilExit(env: NodeJS.ProcessEnv, timeoutMs = 30_000): Promise<FinishedProcess> {
  const { child, stdout, stderr, exited } = launch(env);
  const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
  const code = await exited;
  clearTimeout(timer);
  return { code, stdout: stdout.join(""), stderr: stderr.join("") };
}

/** An admin API call with the test token. */
export async function adminCall(
  url: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: any }> {
  const response = await fetch(`${url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${ADMIN_TOKEN}`,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  return { status: response.status, body: text === "" ? undefined : JSON.parse(text) };
}

/** A merchant with an API key and a published webinar, made through the admin API. */
export async function adminMerchant(
  url: string,
): Promise<{ merchantId: string; apiKey: string; secret: string; ticketCode: string }> {
  const { merchantId } = (await adminCall(url, "POST", "/admin/v1/merchants", { name: "Process test" })).body as {
    merchantId: string;
  };
  const key = (await adminCall(url, "POST", `/admin/v1/merchants/${merchantId}/api-keys`, {})).body as {
    apiKey: string;
    secret: string;
  };
  const { ticketCode } = (await adminCall(url, "POST", `/admin/v1/merchants/${merchantId}/webinars`, {})).body as {
    ticketCode: string;
  };
  return { merchantId, ...key, ticketCode };
}

/** Two server processes on one new PostgreSQL database, for what must hold across processes. */
export interface TwoProcesses {
  readonly servers: readonly [ServerProcess, ServerProcess];
  /** The database's URL, to look at what both wrote. */
  readonly databaseUrl: string;
  /** Stops both and drops the database. */
  stop(): Promise<void>;
}

export async function startTwoProcessesOnPostgres(label: string, env: Record<string, string>): Promise<TwoProcesses> {
  const database = await createPostgresDatabase(label);
  const started: ServerProcess[] = [];
  const stop = async () => {
    for (const server of started) await server.stop();
    await database.drop();
  };
  try {
    // One after the other: the first one migrates the new database.
    for (let index = 0; index < 2; index += 1)
      started.push(await startServerProcess({ ...env, DATABASE_URL: database.url }));
  } catch (error) {
    await stop();
    throw error;
  }
  return { servers: started as [ServerProcess, ServerProcess], databaseUrl: database.url, stop };
}
