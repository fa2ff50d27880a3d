/**
 * Runs a TypeScript program (the CLI, a code sample) as a child process the way a user would, with tsx and the
 * workspace packages resolved to their sources, and only PATH plus the given variables in its environment.
 */
import { execFile, spawn } from "node:child_process";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

/** The timeout of a test that starts Node processes (the CLI, a sample): seconds each on a busy machine. */
export const SPAWN_TIMEOUT_MS = 60_000;

const tsxCli = createRequire(import.meta.url).resolve("tsx/cli");
const tsconfig = fileURLToPath(new URL("./tsconfig.workspace.json", import.meta.url));

export interface RunResult {
  exitCode: number;
  stdout: string;
  stderr: string;
}

const tsxArgs = (file: string, args: string[]) => [tsxCli, "--tsconfig", tsconfig, file, ...args];
const childEnv = (env: Record<string, string>) => ({ PATH: process.env.PATH ?? "/usr/bin:/bin", ...env });

export function runTypeScript(file: string, args: string[], env: Record<string, string>): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      tsxArgs(file, args),
      { env: childEnv(env), timeout: 60_000, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error !== null && typeof error.code !== "number") {
          reject(error);
          return;
        }
        resolve({ exitCode: error === null ? 0 : (error.code as number), stdout, stderr });
      },
    );
  });
}

/** Runs it with stdout written to an open file, as a shell's `> file` does; only stderr is captured. */
export function runTypeScriptToFile(
  file: string,
  args: string[],
  env: Record<string, string>,
  stdoutFd: number,
): Promise<Omit<RunResult, "stdout">> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, tsxArgs(file, args), {
      env: childEnv(env),
      stdio: ["ignore", stdoutFd, "pipe"],
      timeout: 60_000,
    });
    let stderr = "";
    child.stderr?.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (code) => resolve({ exitCode: code ?? -1, stderr }));
  });
}
