/**
 * Child processes for the slow release tests: commands that must succeed (their output is kept for the failure
 * message), long-running services stopped by their own process id, and a free port chosen at run time.
 */
import { spawn, spawnSync, type ChildProcess, type SpawnSyncReturns } from "node:child_process";
import { createServer } from "node:net";

export interface RunOptions {
  cwd: string;
  env?: NodeJS.ProcessEnv;
  timeoutMs?: number;
  input?: string;
}

export function run(command: string, args: string[], options: RunOptions): SpawnSyncReturns<string> {
  return spawnSync(command, args, {
    cwd: options.cwd,
    env: options.env ?? process.env,
    encoding: "utf8",
    input: options.input,
    maxBuffer: 64 * 1024 * 1024,
    timeout: options.timeoutMs ?? 300_000,
    killSignal: "SIGKILL",
  });
}

export function output(result: SpawnSyncReturns<string>): string {
  if (result.error) return result.error.message;
  return `${result.stdout ?? ""}${result.stderr ?? ""}`.trim();
}

/** Runs a command and throws with its output (last lines) when it fails. */
export function runOk(command: string, args: string[], options: RunOptions): string {
  const result = run(command, args, options);
  if (result.status !== 0) {
    const text = output(result).split("\n").slice(-60).join("\n");
    throw new Error(`\`${[command, ...args].join(" ")}\` exited ${result.status ?? result.signal}:\n${text}`);
  }
  return result.stdout;
}

/** Settings pnpm exports to the processes it starts mean nothing to npm (it warns about them); drop them. */
export function cleanEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const key of Object.keys(env)) {
    if (/^npm_(config_|command|execpath|lifecycle_|package_|node_execpath)/i.test(key)) delete env[key];
  }
  delete env["NODE_OPTIONS"];
  delete env["VITEST"];
  delete env["VITEST_MODE"];
  delete env["NODE_ENV"];
  return { ...env, ...extra };
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export interface Service {
  child: ChildProcess;
  /** Everything the process printed so far. */
  log: () => string;
  stop: () => Promise<void>;
}

export function startService(
  command: string,
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv },
): Service {
  const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ["ignore", "pipe", "pipe"] });
  let text = "";
  child.stdout?.on("data", (chunk: Buffer) => (text += chunk.toString("utf8")));
  child.stderr?.on("data", (chunk: Buffer) => (text += chunk.toString("utf8")));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  return {
    child,
    log: () => text,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Polls `url` until it answers 2xx, or fails with the service's output when it exits or time runs out. */
export async function waitForHttp(url: string, service: Service, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (service.child.exitCode !== null)
      throw new Error(`the process exited (${service.child.exitCode}):\n${service.log()}`);
    try {
      const response = await fetch(url);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms:\n${service.log()}`);
}
