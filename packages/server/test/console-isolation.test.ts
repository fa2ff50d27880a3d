/**
 * Isolation between merchants in the console API, on PGlite and on PostgreSQL: a person of merchant A tries
 * every operation that names a key or a webinar with merchant B's, and gets 404 (the same as for one that does
 * not exist), changing nothing of B's; every list of A holds nothing of B's.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { consoleOperations } from "@org/webinar-console-contract/validators";
import { DATABASE_KINDS, openTestDatabase, type TestDatabase } from "./support/databases";
import { startTestServer, type Merchant, type TestServer } from "./support/harness";
import { sampleCall, signedInPerson, type ConsolePersonClient } from "./support/console-client";

type OperationId = keyof typeof consoleOperations;

describe.each(DATABASE_KINDS)("console isolation on %s", (kind) => {
  let database: TestDatabase;
  let api: TestServer;
  let a: Merchant;
  let b: Merchant;
  let personOfA: ConsolePersonClient;
  let personOfB: ConsolePersonClient;

  beforeAll(async () => {
    database = await openTestDatabase(kind, "console-isolation");
    api = await startTestServer(database);
    a = await api.newMerchant();
    b = await api.newMerchant();
    personOfA = await signedInPerson(api, a.merchantId, "owner-a@example.com");
    personOfB = await signedInPerson(api, b.merchantId, "owner-b@example.com");
    // B has a request log, an audit list, a changed webinar.
    await b.client.upsertViewer({ externalUserId: "b-viewer" });
    await personOfB.call("POST", "/console/api/api-keys", {});
    await personOfB.call("POST", `/console/api/webinars/${b.ticketCode}/status`, { status: "HIDDEN" });
  });
  afterAll(async () => {
    await api?.close();
    await database?.close();
  });

  const namesKeyOrWebinar = (Object.keys(consoleOperations) as OperationId[]).filter((operationId) =>
    /\{(ticketCode|apiKey)\}/.test(consoleOperations[operationId].path),
  );

  it("names every operation on a key or a webinar", () => {
    expect(namesKeyOrWebinar).toHaveLength(13);
  });

  it.each(namesKeyOrWebinar)("%s with merchant B's key or webinar: 404 for A's person", async (operationId) => {
    const { method, path, body } = sampleCall(operationId, b.ticketCode, b.apiKey);
    const answer = await personOfA.call(method, path, body);
    expect(answer.status).toBe(404);
    expect(answer.body.error.code).toBe(path.includes("/api-keys/") ? "API_KEY_NOT_FOUND" : "WEBINAR_NOT_FOUND");
    const unknown = sampleCall(operationId, "wbn-nothing-here", "wk_live_nothing");
    const missing = await personOfA.call(unknown.method, unknown.path, unknown.body);
    expect({ status: missing.status, code: missing.body.error.code }).toEqual({
      status: 404,
      code: answer.body.error.code,
    });
  });

  it("B's key and webinar are unchanged after A's attempts", async () => {
    const keys = await personOfB.call("GET", "/console/api/api-keys");
    const original = keys.body.items.find((item: { apiKey: string }) => item.apiKey === b.apiKey);
    expect(original).toMatchObject({ status: "ACTIVE", revokesAt: null });
    await b.client.upsertViewer({ externalUserId: "b-still-works" });
    const webinar = await personOfB.call("GET", `/console/api/webinars/${b.ticketCode}`);
    expect(webinar.body.webinar).toMatchObject({ status: "HIDDEN", liveStatus: "NOT_STARTED", liveVideoUrl: null });
  });

  it("A's lists hold nothing of B's: keys, webinars, request log, audit list", async () => {
    // B's requests are in the log (written off the request path, within a second) before A's lists are read.
    const bLogLength = async () => (await personOfB.call("GET", "/console/api/requests")).body.items.length;
    await expect.poll(bLogLength, { timeout: 10_000 }).toBeGreaterThanOrEqual(2);
    const text = JSON.stringify(
      await Promise.all(
        ["/console/api/api-keys", "/console/api/webinars", "/console/api/requests", "/console/api/audit-events"].map(
          async (path) => (await personOfA.call("GET", path)).body,
        ),
      ),
    );
    expect(text).not.toContain(b.apiKey);
    expect(text).not.toContain(b.ticketCode);
    expect(text).not.toContain("owner-b@example.com");
    const filtered = await personOfA.call("GET", `/console/api/requests?apiKey=${b.apiKey}`);
    expect(filtered.body.items).toEqual([]);
  });
});
