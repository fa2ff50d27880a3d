/**
 * Revocation and suspension through the admin API act on the next request in every server process: two real
 * processes on one PostgreSQL database, each having just served the key, then the change made through one process
 * and the next signed request sent to the other. No process keeps a credential the database no longer holds.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { operations } from "@org/webinar-types";
import { signRequest } from "@org/webinar-signing";
import { createPostgresDatabase } from "./support/databases";
import { adminCall, adminMerchant, startServerProcess, type ServerProcess } from "./support/server-process";

let servers: ServerProcess[] = [];
let dropDatabase: (() => Promise<void>) | undefined;

beforeAll(async () => {
  const database = await createPostgresDatabase("revocation");
  dropDatabase = database.drop;
  // One after the other: the first one migrates the new database.
  for (let index = 0; index < 2; index += 1)
    servers.push(await startServerProcess({ DATABASE_URL: database.url, WEBINAR_LOG_LEVEL: "warn" }));
}, 120_000);

afterAll(async () => {
  for (const server of servers) await server.stop();
  servers = [];
  await dropDatabase?.();
});

/** A freshly signed upsert sent to `url`: its status and error code (`-` for success). */
async function upsert(
  url: string,
  credentials: { apiKey: string; secret: string },
  externalUserId: string,
): Promise<string> {
  const path = operations.upsertViewer.path;
  const body = JSON.stringify({ externalUserId });
  const { headers } = await signRequest({ ...credentials, path, body });
  const response = await fetch(`${url}${path}`, { method: "POST", headers: { ...headers }, body });
  const answer = (await response.json()) as { error?: { code: string } };
  return `${response.status} ${answer.error?.code ?? "-"}`;
}

it("a key revoked through one process is refused by the other on its next request (401)", async () => {
  const [first, second] = servers as [ServerProcess, ServerProcess];
  const merchant = await adminMerchant(first.url);
  expect([await upsert(first.url, merchant, "rev-1"), await upsert(second.url, merchant, "rev-2")]).toEqual([
    "200 -",
    "200 -",
  ]);
  expect((await adminCall(first.url, "POST", `/admin/v1/api-keys/${merchant.apiKey}/revoke`)).status).toBe(200);
  expect(await upsert(second.url, merchant, "rev-3")).toBe("401 OPEN_API_UNAUTHORIZED");
  expect(await upsert(first.url, merchant, "rev-4")).toBe("401 OPEN_API_UNAUTHORIZED");
});

it("a merchant suspended through one process is refused by the other on its next request (403), and served again once reactivated", async () => {
  const [first, second] = servers as [ServerProcess, ServerProcess];
  const merchant = await adminMerchant(first.url);
  expect([await upsert(first.url, merchant, "sus-1"), await upsert(second.url, merchant, "sus-2")]).toEqual([
    "200 -",
    "200 -",
  ]);
  const status = `/admin/v1/merchants/${merchant.merchantId}/status`;
  expect((await adminCall(second.url, "POST", status, { status: "SUSPENDED" })).status).toBe(200);
  expect(await upsert(first.url, merchant, "sus-3")).toBe("403 TENANT_SUSPENDED");
  expect(await upsert(second.url, merchant, "sus-4")).toBe("403 TENANT_SUSPENDED");
  expect((await adminCall(first.url, "POST", status, { status: "ACTIVE" })).status).toBe(200);
  expect(await upsert(second.url, merchant, "sus-5")).toBe("200 -");
});
