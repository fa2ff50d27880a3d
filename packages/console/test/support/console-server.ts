/**
 * The reference server as an operator runs it (the `webinar-server` command of @org/webinar-server, as built,
 * which serves the built console at /console/), on the embedded database or on a PostgreSQL database of its own with a unique name, and the admin
 * API calls the console's tests need: a merchant, its key, a webinar, a console user's invite.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import pg from "pg";
import { packageCommand } from "./package-command";

// The workspace's root declares @org/webinar-server for these tests: the server depends on this app, whose built
// files it carries, so this app cannot depend on the server without a circle.
const SERVER_MAIN = packageCommand("@org/webinar-server", "webinar-server");
const POSTGRES_ADMIN_URL = process.env.WEBINAR_TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

export interface ConsoleServer {
  baseUrl: string;
  /** A query on the server's PostgreSQL database (only on "postgres"), for a test to put state where it needs it. */
  sql(text: string, values?: unknown[]): Promise<Record<string, unknown>[]>;
  /** An admin API call; throws with the answer when it is not a success. */
  admin<T = Record<string, any>>(method: "POST" | "GET" | "PUT", path: string, body?: unknown): Promise<T>;
  /** Everything the server wrote, for a failing test's message. */
  output(): string;
  stop(): Promise<void>;
}

async function postgresQuery(
  sql: string,
  { url = POSTGRES_ADMIN_URL, values }: { url?: string; values?: unknown[] | undefined } = {},
): Promise<Record<string, unknown>[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql, values)).rows;
  } finally {
    await client.end();
  }
}

function listening(child: ChildProcess, output: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the server did not listen in time:\n${output.join("")}`)), 90_000);
    child.stdout!.on("data", () => {
      const url = /listening on (http:\/\/\S+)/.exec(output.join(""))?.[1];
      if (url !== undefined) {
        clearTimeout(timer);
        resolve(url.replace(/\/$/, ""));
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`the server exited (${code}) before listening:\n${output.join("")}`));
    });
  });
}

/**
 * Starts the built server on `database`; a PostgreSQL database is created for it and dropped at stop. With `demo`,
 * the server creates the demo merchant, webinar and console invite of a first start and prints them.
 */
export async function startConsoleServer(
  database: "pglite" | "postgres",
  options: { demo?: boolean } = {},
): Promise<ConsoleServer> {
  if (!existsSync(SERVER_MAIN)) throw new Error(`${SERVER_MAIN} is missing: run pnpm build first`);
  const adminToken = randomBytes(16).toString("hex");
  const databaseName = `webinar_console_${randomBytes(5).toString("hex")}`;
  if (database === "postgres") await postgresQuery(`create database "${databaseName}"`);
  const dropDatabase = async () => {
    if (database === "postgres") await postgresQuery(`drop database if exists "${databaseName}" with (force)`);
  };
  const databaseUrl = new URL(POSTGRES_ADMIN_URL);
  databaseUrl.pathname = `/${databaseName}`;
  const child = spawn(process.execPath, [SERVER_MAIN], {
    env: {
      PATH: process.env.PATH,
      PORT: "0",
      WEBINAR_ADMIN_TOKEN: adminToken,
      WEBINAR_SECRET_KEY: randomBytes(32).toString("hex"),
      WEBINAR_SEED_DEMO: options.demo === true ? "true" : "false",
      WEBINAR_LOG_LEVEL: "warn",
      ...(database === "pglite" ? { WEBINAR_DATA_DIR: "memory:" } : { DATABASE_URL: databaseUrl.toString() }),
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const output: string[] = [];
  child.stdout!.setEncoding("utf8").on("data", (chunk: string) => output.push(chunk));
  child.stderr!.setEncoding("utf8").on("data", (chunk: string) => output.push(chunk));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  let baseUrl: string;
  try {
    baseUrl = await listening(child, output);
  } catch (error) {
    child.kill("SIGKILL");
    await dropDatabase();
    throw error;
  }
  return {
    baseUrl,
    async sql(text, values) {
      if (database !== "postgres") throw new Error("sql() needs the server on PostgreSQL");
      return postgresQuery(text, { url: databaseUrl.toString(), values });
    },
    async admin(method, path, body) {
      const response = await fetch(`${baseUrl}/admin/v1/${path}`, {
        method,
        headers: {
          authorization: `Bearer ${adminToken}`,
          ...(body === undefined ? {} : { "content-type": "application/json" }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await response.text();
      if (!response.ok) throw new Error(`admin ${method} ${path} answered ${response.status}: ${text}`);
      return (text === "" ? {} : JSON.parse(text)) as any;
    },
    output: () => output.join(""),
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      await exited;
      await dropDatabase();
    },
  };
}

/** A merchant made through the admin API, with an API key for its backend and a console person's invite. */
export async function consoleMerchant(
  server: ConsoleServer,
  name: string,
): Promise<{
  merchantId: string;
  apiKey: string;
  secret: string;
  invite(email: string, role?: string): Promise<string>;
}> {
  const { merchantId } = await server.admin<{ merchantId: string }>("POST", "merchants", { name });
  const { apiKey, secret } = await server.admin<{ apiKey: string; secret: string }>(
    "POST",
    `merchants/${merchantId}/api-keys`,
    {},
  );
  return {
    merchantId,
    apiKey,
    secret,
    async invite(email, role) {
      const answer = await server.admin<{ inviteUrl?: string; data?: { inviteUrl: string } }>(
        "POST",
        `merchants/${merchantId}/console-users`,
        { email, ...(role === undefined ? {} : { role }) },
      );
      const inviteUrl = answer.inviteUrl ?? answer.data?.inviteUrl;
      if (inviteUrl === undefined)
        throw new Error(`createConsoleUser answered no inviteUrl: ${JSON.stringify(answer)}`);
      // The invite names the server's public origin; the test opens it on the address it started the server at.
      const { pathname, hash } = new URL(inviteUrl);
      return `${server.baseUrl}${pathname}${hash}`;
    },
  };
}
