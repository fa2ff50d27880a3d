/**
 * The server as operators run it: `node packages/server/dist/main.js` (built by `pnpm build`, which `pnpm test`
 * runs first), started by the launcher every package's tests share (@org/webinar-test-support), with this
 * package's test admin token and secret key so that in-process and process servers can share a database.
 */
import { fileURLToPath } from "node:url";
import { createAdminMerchant } from "@org/webinar-test-support/admin-client";
import { createPostgresDatabase } from "@org/webinar-test-support/postgres-database";
import {
  type FinishedProcess,
  runServerUntilExit as runUntilExit,
  type ServerProcess,
  startServerProcess as start,
} from "@org/webinar-test-support/server-process";
import { ADMIN_TOKEN, SECRET_KEY } from "./harness";

export type { FinishedProcess, ServerProcess };

/** The built command-line entry. */
export const SERVER_MAIN = fileURLToPath(new URL("../../dist/main.js", import.meta.url));

const command = [process.execPath, SERVER_MAIN];
const testEnv = (env: Record<string, string>) => ({
  WEBINAR_ADMIN_TOKEN: ADMIN_TOKEN,
  WEBINAR_SECRET_KEY: SECRET_KEY,
  ...env,
});

/** Starts the built server with `env` over the test defaults, and waits until it listens. */
export function startServerProcess(env: Record<string, string>, timeoutMs = 60_000): Promise<ServerProcess> {
  return start({ command, env: testEnv(env), timeoutMs });
}

/** Runs the built server with `env` until it exits by itself (a start that fails); kills it after `timeoutMs`. */
export function runServerUntilExit(env: Record<string, string>, timeoutMs = 30_000): Promise<FinishedProcess> {
  return runUntilExit({ command, env: testEnv(env), timeoutMs });
}

/** A merchant with an API key and a published webinar (created with `webinar`), made through the server's admin API. */
export const adminMerchant = (server: ServerProcess, webinar: { ticketCode?: string; title?: string } = {}) =>
  createAdminMerchant(server.admin, { name: "Process test", webinar });

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
