/**
 * Starting the real process (`node dist/main.js`): a start that fails prints ONE line on stderr saying what
 * failed and which setting to change, no stack trace, and exits with code 1; and the data directory is locked
 * for one server (a second one exits at once naming the directory and the holder's pid; the lock of a server
 * killed with SIGKILL is taken over, by exactly one of several starters).
 */
import { spawnSync } from "node:child_process";
import { createServer, type Server } from "node:net";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POSTGRES_ADMIN_URL } from "./support/databases";
import { runServerUntilExit, SERVER_MAIN, startServerProcess, type ServerProcess } from "./support/server-process";

let scratch: string;
let busyPort: Server;
let freePort: number;

function listen(): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve(server));
  });
}
const portOf = (server: Server) => (server.address() as { port: number }).port;

beforeAll(async () => {
  scratch = await mkdtemp(path.join(os.tmpdir(), "webinar-start-"));
  await writeFile(path.join(scratch, "a-file"), "not a directory");
  busyPort = await listen();
  const probe = await listen();
  freePort = portOf(probe);
  await new Promise((resolve) => probe.close(resolve));
});

afterAll(async () => {
  await new Promise((resolve) => busyPort?.close(resolve));
  await rm(scratch, { recursive: true, force: true });
});

function postgresUrl(change: (url: URL) => void): string {
  const url = new URL(POSTGRES_ADMIN_URL);
  change(url);
  return url.toString();
}

/** A failed start: exit code 1, one line on stderr matching `line`, nothing that looks like a stack. */
async function expectOneLineFailure(env: Record<string, string>, line: RegExp): Promise<string> {
  const result = await runServerUntilExit({ WEBINAR_DATA_DIR: "memory:", ...env });
  expect(result.code).toBe(1);
  const lines = result.stderr.split("\n").filter((text) => text !== "");
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(/^webinar-server: /);
  expect(lines[0]).toMatch(line);
  expect(result.stderr + result.stdout).not.toMatch(/\n\s+at |Error:/);
  return lines[0]!;
}

describe("a start that fails says what to change in one line, exit code 1", () => {
  it("port in use -> PORT/HOST", async () => {
    await expectOneLineFailure(
      { PORT: String(portOf(busyPort)) },
      new RegExp(
        `cannot listen on 127\\.0\\.0\\.1:${portOf(busyPort)}: the address is already in use; set PORT \\(or HOST\\)`,
      ),
    );
  });

  it("metrics port in use -> WEBINAR_METRICS_PORT (or WEBINAR_METRICS_HOST)", async () => {
    await expectOneLineFailure(
      { WEBINAR_METRICS_PORT: String(portOf(busyPort)) },
      new RegExp(
        `cannot listen for metrics on 127\\.0\\.0\\.1:${portOf(busyPort)}: the address is already in use; set WEBINAR_METRICS_PORT \\(or WEBINAR_METRICS_HOST\\)`,
      ),
    );
  });

  it("HOST that is not an address of this machine -> PORT/HOST", async () => {
    await expectOneLineFailure(
      { HOST: "192.0.2.1" },
      /cannot listen on 192\.0\.2\.1:0: HOST is not an address of this machine; set PORT \(or HOST\)/,
    );
  });

  it("database refusing connections -> DATABASE_URL", async () => {
    const line = await expectOneLineFailure(
      { DATABASE_URL: postgresUrl((url) => (url.port = String(freePort))) },
      new RegExp(
        `cannot use the PostgreSQL database at 127\\.0\\.0\\.1:${freePort}/postgres: connection refused .*; check DATABASE_URL`,
      ),
    );
    expect(line).not.toContain("postgres@");
  });

  it("unknown database host -> DATABASE_URL", async () => {
    await expectOneLineFailure(
      { DATABASE_URL: "postgres://postgres@no-such-host.invalid/test" },
      /the host does not resolve; check DATABASE_URL/,
    );
  });

  it("authentication failure (unknown role) -> DATABASE_URL, password never printed", async () => {
    const line = await expectOneLineFailure(
      {
        DATABASE_URL: postgresUrl((url) => {
          url.username = "no_such_role";
          url.password = "hunter2-password";
        }),
      },
      /the server refused the login; check DATABASE_URL/,
    );
    expect(line).not.toMatch(/hunter2|no_such_role/);
  });

  it("unknown database -> DATABASE_URL", async () => {
    await expectOneLineFailure(
      { DATABASE_URL: postgresUrl((url) => (url.pathname = "/no_such_database_x")) },
      /the database does not exist; check DATABASE_URL/,
    );
  });

  it("a malformed DATABASE_URL -> DATABASE_URL, its value not echoed", async () => {
    const line = await expectOneLineFailure(
      { DATABASE_URL: "postgres://user:s3cret@host:port/db" },
      /configuration error: DATABASE_URL is not a valid URL/,
    );
    expect(line).not.toContain("s3cret");
  });

  it("a data directory below a file -> WEBINAR_DATA_DIR", async () => {
    const dataDir = path.join(scratch, "a-file", "data");
    await expectOneLineFailure(
      { WEBINAR_DATA_DIR: dataDir },
      new RegExp(
        `cannot use the data directory ${dataDir}: a part of the path is not a directory; set WEBINAR_DATA_DIR`,
      ),
    );
  });

  it("data directory where nobody may create one (sysfs) -> WEBINAR_DATA_DIR", async () => {
    await expectOneLineFailure(
      { WEBINAR_DATA_DIR: "/sys/webinar-data" },
      /cannot use the data directory \/sys\/webinar-data: (permission denied|operation not permitted|the file system is read-only); set WEBINAR_DATA_DIR/,
    );
  });

  it("a bad WEBINAR_SECRET_KEY -> WEBINAR_SECRET_KEY", async () => {
    await expectOneLineFailure(
      { WEBINAR_SECRET_KEY: "too-short" },
      /configuration error: WEBINAR_SECRET_KEY must be 32 random bytes/,
    );
  });

  it.each([
    ["PORT", "http", /PORT must be a whole number/],
    [
      "WEBINAR_HEADERS_TIMEOUT_MS",
      "60000",
      /WEBINAR_HEADERS_TIMEOUT_MS \(60000\) must not exceed WEBINAR_REQUEST_TIMEOUT_MS \(30000\)/,
    ],
    ["WEBINAR_MAX_CONNECTIONS", "0", /WEBINAR_MAX_CONNECTIONS must be between 1 and/],
    ["WEBINAR_DB_STATEMENT_TIMEOUT_MS", "soon", /WEBINAR_DB_STATEMENT_TIMEOUT_MS must be a whole number/],
    ["WEBINAR_METRICS_PORT", "metrics", /WEBINAR_METRICS_PORT must be a whole number/],
  ])("configuration error in %s -> names the variable", async (name, value, line) => {
    await expectOneLineFailure({ [name]: value }, line);
  });

  it("--help lists the connection and database limits", () => {
    const help = spawnSync(process.execPath, [SERVER_MAIN, "--help"], { encoding: "utf8" });
    expect(help.status).toBe(0);
    for (const name of [
      "WEBINAR_HEADERS_TIMEOUT_MS",
      "WEBINAR_REQUEST_TIMEOUT_MS",
      "WEBINAR_KEEP_ALIVE_TIMEOUT_MS",
      "WEBINAR_MAX_HEADER_BYTES",
      "WEBINAR_MAX_CONNECTIONS",
      "WEBINAR_DB_STATEMENT_TIMEOUT_MS",
    ]) {
      expect(help.stdout).toContain(name);
    }
  });
});

describe("the data directory is locked for one server", () => {
  let dataDir: string;
  let first: ServerProcess | undefined;
  const started: ServerProcess[] = [];

  beforeAll(async () => {
    dataDir = path.join(scratch, "locked-data");
    first = await startServerProcess({ WEBINAR_DATA_DIR: dataDir, WEBINAR_SECRET_KEY: "" });
    started.push(first);
  }, 120_000);

  afterAll(async () => {
    for (const server of started) await server.stop("SIGKILL");
  });

  it("a second server on the same directory exits at once with one line naming the directory and the holder's pid", async () => {
    const result = await runServerUntilExit({ WEBINAR_DATA_DIR: dataDir, WEBINAR_SECRET_KEY: "" });
    expect(result.code).toBe(1);
    expect(result.stderr.trim().split("\n")).toEqual([
      expect.stringContaining(`the data directory ${dataDir} is in use by process ${first!.pid}`),
    ]);
    // The first one still serves.
    expect((await fetch(`${first!.url}/healthz`)).status).toBe(200);
  });

  it("after SIGKILL of the holder, of several servers started at once exactly one takes the directory over", async () => {
    await first!.stop("SIGKILL");
    const contenders = await Promise.allSettled(
      [0, 1, 2].map(() => startServerProcess({ WEBINAR_DATA_DIR: dataDir, WEBINAR_SECRET_KEY: "" })),
    );
    const winners = contenders
      .filter((result): result is PromiseFulfilledResult<ServerProcess> => result.status === "fulfilled")
      .map((result) => result.value);
    started.push(...winners);
    expect(winners).toHaveLength(1);
    const winner = winners[0]!;
    for (const loser of contenders.filter((result) => result.status === "rejected")) {
      expect(String((loser as PromiseRejectedResult).reason)).toContain(`is in use by process ${winner.pid}`);
    }
    expect((await fetch(`${winner.url}/healthz`)).status).toBe(200);
    // A clean stop releases the directory: the next start takes it without a takeover.
    expect(await winner.stop("SIGTERM")).toBe(0);
    const next = await startServerProcess({ WEBINAR_DATA_DIR: dataDir, WEBINAR_SECRET_KEY: "" });
    started.push(next);
    expect((await fetch(`${next.url}/healthz`)).status).toBe(200);
  }, 120_000);
});
