/** The `webinar` CLI of @org/webinar-client, run as a merchant's developer runs it: a child process with env. */
import { execFile } from "node:child_process";
import { packageBin } from "@org/webinar-test-support/package-bin";

const CLI = packageBin(import.meta.url, "@org/webinar-client", "webinar");

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
  /** stdout (or, for an error, stderr) parsed as JSON: `{requestId, data}` or `{error: {...}}`. */
  json: any;
}

/** Runs `webinar <args> --json` with the credentials in WEBINAR_* variables, as from a downloaded .env. */
export function runWebinarCli(
  args: string[],
  credentials: { baseUrl: string; apiKey: string; secret: string },
): Promise<CliRun> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [CLI, ...args, "--json"],
      {
        env: {
          PATH: process.env.PATH,
          WEBINAR_BASE_URL: credentials.baseUrl,
          WEBINAR_API_KEY: credentials.apiKey,
          WEBINAR_API_SECRET: credentials.secret,
        },
        timeout: 60_000,
      },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === "number" ? error.code : -1;
        const text = code === 0 ? stdout : stderr;
        let json: unknown;
        try {
          json = JSON.parse(text);
        } catch {
          json = undefined;
        }
        resolve({ code, stdout, stderr, json });
      },
    );
  });
}
