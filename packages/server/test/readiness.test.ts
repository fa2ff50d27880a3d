/**
 * `GET /readyz`: 200 when the database answers and has this build's migrations applied; 503 STORAGE_UNAVAILABLE
 * while PostgreSQL is unreachable (the server reaches it through a TCP proxy that the test closes, cutting every
 * connection, and opens again; the metric `webinar_database_up` says the same) and while the latest migration is
 * not recorded. `/healthz` stays liveness.
 */
import { createConnection, createServer, type Server, type Socket } from "node:net";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrations } from "../src/db/migrations";
import { DATABASE_KINDS, openTestDatabase, type TestDatabase } from "./support/databases";
import { startTestServer, type TestServer } from "./support/harness";
import { sampleValue, scrape } from "./support/metrics-text";

/** A TCP proxy to PostgreSQL that can be taken down (refusing and cutting connections) and brought back. */
function postgresProxy(target: URL) {
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  let port = 0;
  const open = async () => {
    server = createServer((client) => {
      const upstream = createConnection(Number(target.port || 5432), target.hostname);
      for (const [from, to] of [
        [client, upstream],
        [upstream, client],
      ] as const) {
        sockets.add(from);
        from.pipe(to);
        from.on("error", () => to.destroy());
        from.on("close", () => {
          sockets.delete(from);
          to.destroy();
        });
      }
    });
    await new Promise<void>((resolve) => server!.listen(port, "127.0.0.1", resolve));
    port = (server.address() as { port: number }).port;
  };
  return {
    open,
    get port() {
      return port;
    },
    async close() {
      const closed = new Promise<void>((resolve) => server?.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
  };
}

const readiness = async (url: string) => {
  const response = await fetch(`${url}/readyz`);
  return { status: response.status, body: (await response.json()) as any };
};

describe.runIf(DATABASE_KINDS.includes("postgres"))("readiness on PostgreSQL", () => {
  let database: TestDatabase;
  let api: TestServer;
  const proxy = { current: undefined as ReturnType<typeof postgresProxy> | undefined };

  beforeAll(async () => {
    database = await openTestDatabase("postgres", "readiness");
    const target = new URL(database.env.DATABASE_URL!);
    proxy.current = postgresProxy(target);
    await proxy.current.open();
    const viaProxy = new URL(target);
    viaProxy.host = `127.0.0.1:${proxy.current.port}`;
    api = await startTestServer(
      database,
      { DATABASE_URL: viaProxy.toString(), WEBINAR_DB_CONNECT_TIMEOUT_MS: "500", WEBINAR_METRICS_PORT: "0" },
      { database: "own" },
    );
  });
  afterAll(async () => {
    await api?.close();
    await proxy.current?.close();
    await database?.close();
  });

  it("200 ready while the database answers with every migration applied", async () => {
    const answer = await readiness(api.url);
    expect(answer).toEqual({ status: 200, body: { requestId: expect.stringMatching(/^req_/), status: "ready" } });
  });

  it("503 STORAGE_UNAVAILABLE while PostgreSQL is unreachable, 200 again once it is back; /healthz says the same", async () => {
    await proxy.current!.close();
    const started = Date.now();
    const down = await readiness(api.url);
    expect(down.status).toBe(503);
    expect(down.body).toMatchObject({ status: "unavailable", error: { code: "STORAGE_UNAVAILABLE" } });
    expect(Date.now() - started).toBeLessThan(5000);
    expect((await fetch(`${api.url}/healthz`)).status).toBe(503);
    expect(sampleValue(await scrape(api.server.metricsUrl!), "webinar_database_up")).toBe(0);

    await proxy.current!.open();
    let status = 0;
    for (let attempt = 0; attempt < 20 && status !== 200; attempt += 1) {
      status = (await readiness(api.url)).status;
      if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(status).toBe(200);
    expect(sampleValue(await scrape(api.server.metricsUrl!), "webinar_database_up")).toBe(1);
  });

  it("503 while this build's latest migration is not recorded; /healthz stays 200", async () => {
    const latest = Object.keys(migrations).at(-1)!;
    const { db } = database.handle;
    const removed = await sql<{ name: string; timestamp: string }>`
      delete from kysely_migration where name = ${latest} returning name, timestamp`.execute(db);
    try {
      const answer = await readiness(api.url);
      expect(answer.status).toBe(503);
      expect(answer.body.error).toEqual({
        code: "STORAGE_UNAVAILABLE",
        message: `the database schema lacks migration ${latest}`,
      });
      expect((await fetch(`${api.url}/healthz`)).status).toBe(200);
    } finally {
      const row = removed.rows[0]!;
      await sql`insert into kysely_migration (name, timestamp) values (${row.name}, ${row.timestamp})`.execute(db);
    }
    expect((await readiness(api.url)).status).toBe(200);
  });
});
