/**
 * The database stopped under the running server: answers are the operations' 503 codes, fast and
 * never a hang, and the server recovers by itself when the database is back. Done for real with a private
 * PostgreSQL (initdb + pg_ctl), stopped and started while the server runs.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../src/config";
import { startServer, type WebinarServer } from "../src/server";
import { ADMIN_TOKEN, Capture, SECRET_KEY } from "./support/harness";
import { createPrivatePostgres, privatePostgresAvailable, type PrivatePostgres } from "./support/private-postgres";
import { createWebinarClient, type WebinarClient } from "@org/webinar-client";
import { contractCheckingFetch } from "./support/contract";

describe.skipIf(!privatePostgresAvailable)("database outage (private PostgreSQL stopped and started)", () => {
  let postgres: PrivatePostgres;
  let server: WebinarServer;
  let client: WebinarClient;
  let ticketCode: string;
  const violations: string[] = [];
  const logs = new Capture();

  const admin = async (path: string, body: unknown) => {
    const response = await fetch(`${server.url}${path}`, {
      method: "POST",
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as any };
  };
  const timed = async <T>(work: () => Promise<T>): Promise<{ value: T | undefined; error: any; ms: number }> => {
    const started = Date.now();
    try {
      return { value: await work(), error: undefined, ms: Date.now() - started };
    } catch (error) {
      return { value: undefined, error, ms: Date.now() - started };
    }
  };

  beforeAll(async () => {
    postgres = await createPrivatePostgres();
    const config = loadConfig({
      PORT: "0",
      DATABASE_URL: postgres.url,
      WEBINAR_SECRET_KEY: SECRET_KEY,
      WEBINAR_ADMIN_TOKEN: ADMIN_TOKEN,
      WEBINAR_SEED_DEMO: "false",
      WEBINAR_DB_CONNECT_TIMEOUT_MS: "1000",
      WEBINAR_DB_STATEMENT_TIMEOUT_MS: "2000",
    });
    server = await startServer(config, { stdout: new Capture() as never, logDestination: logs });
    const { merchantId } = (await admin("/admin/v1/merchants", { name: "Outage" })).body;
    const key = (await admin(`/admin/v1/merchants/${merchantId}/api-keys`, {})).body;
    ticketCode = (await admin(`/admin/v1/merchants/${merchantId}/webinars`, {})).body.ticketCode;
    client = createWebinarClient({
      baseUrl: server.url,
      apiKey: key.apiKey,
      secret: key.secret,
      retry: false,
      fetch: contractCheckingFetch(violations),
    });
  }, 60_000);

  afterAll(async () => {
    await server?.close();
    await postgres?.destroy();
  });

  it("serves, answers 503 quickly while the database is down, and recovers when it is back", async () => {
    const { viewer } = await client.upsertViewer({ externalUserId: "before-outage" });
    const { loginTicket } = await client.issueLoginTicket({ uid: viewer.uid, ticketCode });

    for (const mode of ["fast", "immediate"] as const) {
      await postgres.stop(mode);

      const upsert = await timed(() => client.upsertViewer({ externalUserId: "during-outage" }));
      expect(upsert.error).toMatchObject({ status: 503, code: "AUTH_DEPENDENCY_UNAVAILABLE" });
      expect(upsert.ms).toBeLessThan(5000);

      const ticket = await timed(() => client.issueLoginTicket({ uid: viewer.uid, ticketCode }));
      expect(ticket.error).toMatchObject({ status: 503, code: "AUTH_DEPENDENCY_UNAVAILABLE" });

      const overview = await timed(() => client.getWatchOverview({ ticketCode, playbackMode: "ALL" }));
      expect(overview.error?.status).toBe(503);

      const exchange = await timed(() =>
        fetch(`${server.url}/w/api/session`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ ticketCode, loginTicket }),
        }),
      );
      expect(exchange.value?.status).toBe(503);
      expect(((await exchange.value!.json()) as { error: { code: string } }).error.code).toBe(
        "AUTH_DEPENDENCY_UNAVAILABLE",
      );
      expect(exchange.ms).toBeLessThan(5000);

      const adminAnswer = await timed(() => admin("/admin/v1/merchants", { name: "during" }));
      expect(adminAnswer.value).toMatchObject({ status: 503, body: { error: { code: "STORAGE_UNAVAILABLE" } } });

      const health = await fetch(`${server.url}/healthz`);
      expect(health.status).toBe(503);
      const readiness = await fetch(`${server.url}/readyz`);
      expect(readiness.status).toBe(503);
      expect(((await readiness.json()) as { error: { code: string } }).error.code).toBe("STORAGE_UNAVAILABLE");

      await postgres.start();
      // The pool replaces its broken connections by itself; allow a few attempts for that.
      let recovered = false;
      for (let attempt = 0; attempt < 10 && !recovered; attempt += 1) {
        recovered = (await fetch(`${server.url}/healthz`)).status === 200;
        if (!recovered) await new Promise((resolve) => setTimeout(resolve, 200));
      }
      expect(recovered).toBe(true);
      expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
      expect((await client.upsertViewer({ externalUserId: `after-${mode}` })).created).toBe(true);
      expect((await client.issueLoginTicket({ uid: viewer.uid, ticketCode })).loginTicket).toMatch(/^lt_/);
    }
    expect(violations).toEqual([]);
    // The outage was logged, without taking the process down.
    expect(logs.text).toMatch(/authentication dependency failed|database connection lost/);
  }, 60_000);
});
