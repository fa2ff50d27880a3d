/**
 * Revocation and suspension through the admin API with credentials read from memory (the `credentials` topic of
 * src/cache/change-feed.ts): two real processes on one PostgreSQL database, each having just served the key. The
 * process that made the change refuses the key on its next request; the other within one second (the bound of
 * the server README's "Caches"), also when its listening connection was just cut.
 */
import pg from "pg";
import { afterAll, beforeAll, expect, it } from "vitest";
import { operations } from "@org/webinar-types";
import { signRequest } from "@org/webinar-signing";
import { createPostgresDatabase } from "./support/databases";
import { adminMerchant, startServerProcess, type ServerProcess } from "./support/server-process";

/** The bound: a change reaches every other process's caches within this. */
const OTHER_PROCESS_BOUND_MS = 1000;

let servers: ServerProcess[] = [];
let database: Awaited<ReturnType<typeof createPostgresDatabase>> | undefined;

beforeAll(async () => {
  database = await createPostgresDatabase("revocation");
  // One after the other: the first one migrates the new database.
  for (let index = 0; index < 2; index += 1)
    servers.push(await startServerProcess({ DATABASE_URL: database.url, WEBINAR_LOG_LEVEL: "warn" }));
}, 120_000);

afterAll(async () => {
  for (const server of servers) await server.stop();
  servers = [];
  await database?.drop();
});

/** A freshly signed upsert sent to `url`: its status and error code (`-` for success). */
async function upsert(url: string, credentials: { apiKey: string; secret: string }): Promise<string> {
  const path = operations.upsertViewer.path;
  const body = JSON.stringify({ externalUserId: `rev-${Math.random()}` });
  const { headers } = await signRequest({ ...credentials, path, body });
  const response = await fetch(`${url}${path}`, { method: "POST", headers: { ...headers }, body });
  const answer = (await response.json()) as { error?: { code: string } };
  return `${response.status} ${answer.error?.code ?? "-"}`;
}

/** Sends signed upserts to `url` until the answer is `expected`: how long that took, or undefined after 3 s. */
async function untilAnswered(
  url: string,
  credentials: { apiKey: string; secret: string },
  expected: string,
): Promise<number | undefined> {
  const started = performance.now();
  while (performance.now() - started < 3000) {
    if ((await upsert(url, credentials)) === expected) return performance.now() - started;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return undefined;
}

/** Both processes serve the merchant's key (so both hold its credential in memory). */
async function servedByBoth(): Promise<Awaited<ReturnType<typeof adminMerchant>>> {
  const [first, second] = servers as [ServerProcess, ServerProcess];
  const merchant = await adminMerchant(first);
  expect([await upsert(first.url, merchant), await upsert(second.url, merchant)]).toEqual(["200 -", "200 -"]);
  return merchant;
}

it("a key revoked through one process: refused by it at once, and by the other within 1 s (401)", async () => {
  const [first, second] = servers as [ServerProcess, ServerProcess];
  const merchant = await servedByBoth();
  expect(
    (await first.admin.POST("/admin/v1/api-keys/{apiKey}/revoke", { params: { path: { apiKey: merchant.apiKey } } }))
      .response.status,
  ).toBe(200);
  expect(await upsert(first.url, merchant)).toBe("401 OPEN_API_UNAUTHORIZED");
  const elapsed = await untilAnswered(second.url, merchant, "401 OPEN_API_UNAUTHORIZED");
  console.log(`revoked key refused by the other process after ${elapsed?.toFixed(1)} ms`);
  expect(elapsed).toBeLessThan(OTHER_PROCESS_BOUND_MS);
});

it("a merchant suspended through one process: 403 from it at once and from the other within 1 s; reactivated, served again", async () => {
  const [first, second] = servers as [ServerProcess, ServerProcess];
  const merchant = await servedByBoth();
  const setStatus = (server: ServerProcess, status: "ACTIVE" | "SUSPENDED") =>
    server.admin.POST("/admin/v1/merchants/{merchantId}/status", {
      params: { path: { merchantId: merchant.merchantId } },
      body: { status },
    });
  expect((await setStatus(second, "SUSPENDED")).response.status).toBe(200);
  expect(await upsert(second.url, merchant)).toBe("403 TENANT_SUSPENDED");
  expect(await untilAnswered(first.url, merchant, "403 TENANT_SUSPENDED")).toBeLessThan(OTHER_PROCESS_BOUND_MS);
  expect((await setStatus(first, "ACTIVE")).response.status).toBe(200);
  expect(await upsert(first.url, merchant)).toBe("200 -");
  expect(await untilAnswered(second.url, merchant, "200 -")).toBeLessThan(OTHER_PROCESS_BOUND_MS);
});

it("with the listening connections just cut, a revocation still reaches the other process within 1 s; once they are back, so does the next", async () => {
  const [first, second] = servers as [ServerProcess, ServerProcess];
  const merchant = await servedByBoth();
  const admin = new pg.Client({ connectionString: database!.url });
  await admin.connect();
  try {
    const cut = await admin.query(
      `select pg_terminate_backend(pid) from pg_stat_activity
       where application_name = 'webinar-server-changes' and datname = current_database()`,
    );
    expect(cut.rowCount).toBe(2);
  } finally {
    await admin.end();
  }
  expect(
    (await first.admin.POST("/admin/v1/api-keys/{apiKey}/revoke", { params: { path: { apiKey: merchant.apiKey } } }))
      .response.status,
  ).toBe(200);
  const elapsed = await untilAnswered(second.url, merchant, "401 OPEN_API_UNAUTHORIZED");
  console.log(`listening connections cut: revoked key refused by the other process after ${elapsed?.toFixed(1)} ms`);
  expect(elapsed).toBeLessThan(OTHER_PROCESS_BOUND_MS);

  // Both processes listen again (they reconnect on their own), and a later change is heard as before.
  const later = await servedByBoth();
  await new Promise((resolve) => setTimeout(resolve, 1500));
  expect(await upsert(second.url, later)).toBe("200 -");
  expect(
    (await first.admin.POST("/admin/v1/api-keys/{apiKey}/revoke", { params: { path: { apiKey: later.apiKey } } }))
      .response.status,
  ).toBe(200);
  expect(await untilAnswered(second.url, later, "401 OPEN_API_UNAUTHORIZED")).toBeLessThan(OTHER_PROCESS_BOUND_MS);
});

it("with the other process's listening connection frozen (its backend stopped, no error on the socket), a revocation still reaches it within 1 s", async () => {
  const [first, second] = servers as [ServerProcess, ServerProcess];
  const merchant = await servedByBoth();
  const admin = new pg.Client({ connectionString: database!.url });
  await admin.connect();
  const listeners = await admin.query<{ pid: number }>(
    `select pid from pg_stat_activity where application_name = 'webinar-server-changes' and datname = current_database()`,
  );
  expect(listeners.rows).toHaveLength(2);
  const frozen = listeners.rows.map((row) => row.pid);
  for (const pid of frozen) process.kill(pid, "SIGSTOP");
  try {
    expect(
      (await first.admin.POST("/admin/v1/api-keys/{apiKey}/revoke", { params: { path: { apiKey: merchant.apiKey } } }))
        .response.status,
    ).toBe(200);
    const elapsed = await untilAnswered(second.url, merchant, "401 OPEN_API_UNAUTHORIZED");
    console.log(
      `listening connections frozen: revoked key refused by the other process after ${elapsed?.toFixed(1)} ms`,
    );
    expect(elapsed).toBeLessThan(OTHER_PROCESS_BOUND_MS);
  } finally {
    for (const pid of frozen) process.kill(pid, "SIGCONT");
    await admin.end();
  }
});
