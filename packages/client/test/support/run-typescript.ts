/**
 * Runs a TypeScript program (the CLI, a code sample) as a child process the way a user would, with tsx and the
 * workspace packages resolved to their sources, and only PATH plus the given variables in its environment.
 */
import { execFile } from "node:child_process";
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

export function runTypeScript(file: string, args: string[], env: Record<string, string>): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [tsxCli, "--tsconfig", tsconfig, file, ...args],
      { env: { PATH: process.env.PATH ?? "/usr/bin:/bin", ...env }, timeout: 60_000, maxBuffer: 64 * 1024 * 1024 },
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
