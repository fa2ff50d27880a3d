/**
 * The client's surface against the verifying server: typed results with a non-enumerable requestId, the signed
 * path behind a base-URL prefix, client.raw and its middlewares, option checks and the browser guard.
 */
import { afterEach, describe, expect, it } from "vitest";
import { createWebinarClient, type WebinarClientOptions } from "@org/webinar-client";
import { createDataset, TICKET_CODE } from "./support/dataset";
import { clientFor, startServer } from "./support/fixtures";
import { TEST_API_KEY, TEST_SECRET } from "./support/verifying-server";

describe("typed methods", () => {
  it("upsertViewer, issueLoginTicket: upsert then issue a ticket: data is returned as is, requestId is attached but not enumerable", async () => {
    const server = await startServer({ dataset: createDataset(0) });
    const { client } = clientFor(server);
    const upserted = await client.upsertViewer({
      externalUserId: "crm-10086",
      phone: "13800138000",
      displayName: "张三",
    });
    const { viewer, created } = upserted;
    expect(created).toBe(true);
    expect(viewer).toEqual({ uid: 10000, externalUserId: "crm-10086", phone: "13800138000", displayName: "张三" });
    expect(upserted.requestId).toMatch(/^req_/);
    expect(Object.keys(upserted)).toEqual(["viewer", "created"]);
    expect(JSON.parse(JSON.stringify(upserted))).toEqual({ viewer, created: true });
    expect({ ...upserted }).not.toHaveProperty("requestId");

    const again = await client.upsertViewer({ externalUserId: "crm-10086" });
    expect(again).toMatchObject({ created: false, viewer: { uid: 10000 } });
    expect(again.requestId).not.toBe(upserted.requestId);

    const { loginUrl, loginTicket, expiresAt } = await client.issueLoginTicket({
      uid: viewer.uid,
      ticketCode: TICKET_CODE,
    });
    expect(loginUrl).toBe(`https://watch.example.com/w/${TICKET_CODE}#login_ticket=${loginTicket}`);
    expect(Date.parse(expiresAt)).toBeGreaterThan(Date.now());
  });

  it("getWatchOverview, queryViewerWatch: overview and one page of the detail query", async () => {
    const server = await startServer({ dataset: createDataset(12) });
    const { client } = clientFor(server);
    const overview = await client.getWatchOverview({ ticketCode: TICKET_CODE, playbackMode: "LIVE" });
    expect(overview).toMatchObject({ ticketCode: TICKET_CODE, dataState: "FINAL", registered: { viewerCount: 12 } });
    const page = await client.queryViewerWatch({
      ticketCode: TICKET_CODE,
      playbackMode: "ALL",
      sort: "LAST_WATCHED_DESC",
      pageSize: 5,
    });
    expect(page.items).toHaveLength(5);
    expect(page.nextCursor).toEqual(expect.any(String));
  });

  it("operation paths: every request is a POST of JSON to the operation's exact path with each signature header once", async () => {
    const server = await startServer({ dataset: createDataset(1) });
    const { client } = clientFor(server);
    await client.getWatchOverview({ ticketCode: TICKET_CODE, playbackMode: "ALL" });
    const [request] = server.received;
    expect(request).toMatchObject({ method: "POST", url: "/api/v1/open/watch-data/overview", verdict: "ok" });
    for (const name of ["content-type", "x-api-key", "x-timestamp", "x-nonce", "x-signature"])
      expect(request!.headers[name]).toHaveLength(1);
    expect(request!.header("content-encoding")).toBeUndefined();
    expect(request!.body.toString("utf8")).toBe('{"ticketCode":"WBN8K2QX","playbackMode":"ALL"}');
  });
});

describe("one path: every method call is a client.raw.POST through the signing middleware", () => {
  it("a middleware added with client.raw.use() sees every method's requests, and runs before signing", async () => {
    const server = await startServer({ dataset: createDataset(1) });
    const { client } = clientFor(server);
    const seen: string[] = [];
    client.raw.use({
      onRequest: ({ request, schemaPath }) => {
        seen.push(`${schemaPath} signed=${request.headers.has("x-signature")}`);
        request.headers.set("x-trace-id", "t-42");
      },
    });
    await client.getWatchOverview({ ticketCode: TICKET_CODE, playbackMode: "ALL" });
    await client.upsertViewer({ externalUserId: "crm-10086" });
    expect(seen).toEqual(["/api/v1/open/watch-data/overview signed=false", "/api/v1/open/viewers/upsert signed=false"]);
    expect(server.received.map((request) => [request.verdict, request.header("x-trace-id")])).toEqual([
      ["ok", "t-42"],
      ["ok", "t-42"],
    ]);
  });

  it("behind a base-URL prefix, a method sends JSON.stringify of its body byte for byte, and logs the path it sent", async () => {
    const server = await startServer({ dataset: createDataset(0), pathPrefix: "/gateway/webinar" });
    const paths: string[] = [];
    const { client } = clientFor(server, { baseUrl: `${server.baseUrl}/`, logger: (entry) => paths.push(entry.path) });
    const body = { externalUserId: "crm-10086", phone: "13800138000", displayName: "张三 🎉" };
    await client.upsertViewer(body);
    expect(server.received[0]).toMatchObject({
      verdict: "ok",
      url: "/gateway/webinar/api/v1/open/viewers/upsert",
      body: Buffer.from(JSON.stringify(body)),
    });
    expect(paths).toEqual(["/gateway/webinar/api/v1/open/viewers/upsert"]);
  });
});

describe("client.raw", () => {
  it("is the signed openapi-fetch client: { data } is the whole envelope, { error } the error envelope", async () => {
    const server = await startServer({ dataset: createDataset(1) });
    const { client } = clientFor(server);
    const ok = await client.raw.POST("/api/v1/open/watch-data/overview", {
      body: { ticketCode: TICKET_CODE, playbackMode: "ALL" },
    });
    expect(ok.data?.data.ticketCode).toBe(TICKET_CODE);
    expect(ok.data?.requestId).toMatch(/^req_/);
    const failed = await client.raw.POST("/api/v1/open/watch-data/overview", {
      body: { ticketCode: "NOPE", playbackMode: "ALL" },
    });
    expect(failed.error).toMatchObject({ error: { code: "WEBINAR_NOT_FOUND" } });
    expect(failed.response.status).toBe(404);
    expect(server.received.map((request) => request.verdict)).toEqual(["ok", "ok"]);
  });

  it("signing runs after every middleware: a middleware that replaces the request is signed over its bytes", async () => {
    const server = await startServer({ dataset: createDataset(1) });
    const { client } = clientFor(server);
    client.raw.use({
      onRequest: ({ request }) =>
        new Request(request.url, {
          method: "POST",
          headers: { "content-type": "application/json", "x-trace-id": "t-42" },
          body: '{"ticketCode":"WBN8K2QX","playbackMode":"REPLAY"}',
        }),
    });
    const { data } = await client.raw.POST("/api/v1/open/watch-data/overview", {
      body: { ticketCode: TICKET_CODE, playbackMode: "ALL" },
    });
    expect(data?.data.dataState).toBe("PROVISIONAL");
    expect(server.received[0]).toMatchObject({ verdict: "ok", json: { playbackMode: "REPLAY" } });
    expect(server.received[0]!.header("x-trace-id")).toBe("t-42");
  });

  it("signature headers a caller sets are replaced, never sent twice", async () => {
    const server = await startServer({ dataset: createDataset(1) });
    const { client } = clientFor(server);
    await client.raw.POST("/api/v1/open/watch-data/overview", {
      body: { ticketCode: TICKET_CODE, playbackMode: "ALL" },
      headers: { "X-Nonce": "caller-nonce-0123456789", "X-Signature": "0".repeat(64) },
    });
    expect(server.received[0]!.verdict).toBe("ok");
    expect(server.received[0]!.header("x-nonce")).not.toBe("caller-nonce-0123456789");
  });
});

describe("createWebinarClient options", () => {
  const valid: WebinarClientOptions = { baseUrl: "https://api.example.com", apiKey: TEST_API_KEY, secret: TEST_SECRET };

  it.each([
    { rule: "a missing secret", options: { ...valid, secret: undefined as unknown as string }, error: /secret/ },
    { rule: "an empty secret (an unset environment variable)", options: { ...valid, secret: "" }, error: /secret/ },
    { rule: "an empty API key", options: { ...valid, apiKey: "" }, error: /apiKey/ },
    { rule: "an API key with a line break", options: { ...valid, apiKey: "key\nPOST" }, error: /apiKey/ },
    { rule: "a relative base URL", options: { ...valid, baseUrl: "/api" }, error: /absolute/ },
    {
      rule: "a base URL with a query string",
      options: { ...valid, baseUrl: "https://api.example.com/?tenant=1" },
      error: /query/,
    },
    {
      rule: "a base URL with credentials",
      options: { ...valid, baseUrl: "https://user:pw@api.example.com" },
      error: /credentials/,
    },
    { rule: "a non-http base URL", options: { ...valid, baseUrl: "ftp://api.example.com" }, error: /http/ },
    { rule: "a zero timeout", options: { ...valid, timeoutMs: 0 }, error: /timeoutMs/ },
    { rule: "zero attempts", options: { ...valid, retry: { maxAttempts: 0 } }, error: /maxAttempts/ },
    {
      rule: "a negative skew threshold",
      options: { ...valid, clockSkew: { thresholdSeconds: -1 } },
      error: /thresholdSeconds/,
    },
  ])("rejects $rule at creation", ({ options, error }) => {
    expect(() => createWebinarClient(options)).toThrow(error);
  });

  it("a nonce source returning an invalid nonce fails the call before anything is sent", async () => {
    const server = await startServer();
    const { client } = clientFor(server, { nonceSource: () => "short" });
    await expect(client.getWatchOverview({ ticketCode: TICKET_CODE, playbackMode: "ALL" })).rejects.toThrow(
      /nonceSource/,
    );
    expect(server.received).toHaveLength(0);
  });
});

describe("browser guard", () => {
  const scope = globalThis as { window?: unknown; document?: unknown };
  afterEach(() => {
    delete scope.window;
    delete scope.document;
  });
  const options: WebinarClientOptions = {
    baseUrl: "https://api.example.com",
    apiKey: TEST_API_KEY,
    secret: TEST_SECRET,
  };

  it.each(["window", "document"] as const)("throws where globalThis.%s exists", (name) => {
    scope[name] = {};
    expect(() => createWebinarClient(options)).toThrow(/browser/);
  });

  it("dangerouslyAllowBrowser: true allows it", () => {
    scope.window = {};
    expect(createWebinarClient({ ...options, dangerouslyAllowBrowser: true }).raw).toBeDefined();
  });
});
