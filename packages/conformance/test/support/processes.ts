/**
 * Child processes of the end-to-end tests: a server started in the background until it prints the URL it listens
 * on, stopped by its own process id; and the built `webinar-conformance` bin run to its end as a second process.
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

export interface BackgroundProcess {
  url: string;
  /** Everything written so far, stdout and stderr. */
  output(): string;
  stop(): Promise<void>;
}

/** Starts `command`; resolves once a line of its output matches `listening` (group 1: the URL). */
export async function startInBackground(
  command: string,
  args: string[],
  options: { cwd?: string; env: NodeJS.ProcessEnv; listening: RegExp; timeoutMs?: number },
): Promise<BackgroundProcess> {
  const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ["ignore", "pipe", "pipe"] });
  let text = "";
  const exited = once(child, "exit");
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(
        new Error(`${command} ${args.join(" ")} did not start within ${options.timeoutMs ?? 90_000} ms:\n${text}`),
      );
    }, options.timeoutMs ?? 90_000);
    const read = (chunk: Buffer) => {
      text += chunk.toString();
      const match = options.listening.exec(text);
      if (match !== null) {
        clearTimeout(timer);
        resolve(match[1]!.replace(/\/$/, ""));
      }
    };
    child.stdout!.on("data", read);
    child.stderr!.on("data", read);
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`${command} ${args.join(" ")} exited before listening:\n${text}`));
    });
  });
  return {
    url,
    output: () => text,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      await exited;
    },
  };
}

/** The built bin, as `node_modules/.bin/webinar-conformance` runs it. */
export const CONFORMANCE_BIN = fileURLToPath(new URL("../../bin/webinar-conformance.js", import.meta.url));

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
  durationMs: number;
}

/** Runs `webinar-conformance` with `args` as a separate process and waits for its exit. */
export async function runConformanceCli(args: string[], env: NodeJS.ProcessEnv = {}): Promise<CliRun> {
  const started = Date.now();
  const child = spawn(process.execPath, [CONFORMANCE_BIN, ...args], {
    env: { PATH: process.env.PATH, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const [code] = (await once(child, "exit")) as [number | null];
  return { code, stdout, stderr, durationMs: Date.now() - started };
}

/** The JSON report a run wrote to `path`; a run that wrote none fails with its exit code and what it printed. */
export function jsonReportOf<Report>(path: string, run: CliRun): Report {
  if (!existsSync(path)) throw new Error(`no JSON report (exit ${run.code}):\n${run.stdout}\n${run.stderr}`.trimEnd());
  return JSON.parse(readFileSync(path, "utf8")) as Report;
}
