/**
 * The client's surface against the verifying server: typed results with a non-enumerable requestId, the signed
 * path behind a base-URL prefix, client.raw, option checks and the browser guard.
 */
import { afterEach, describe, expect, it } from "vitest";
import { createWebinarClient, type WebinarClientOptions } from "@org/webinar-client";
import { createDataset, TICKET_CODE } from "./support/dataset";
import { clientFor, startServer } from "./support/fixtures";
import { TEST_API_KEY, TEST_SECRET, type ReceivedRequest } from "./support/verifying-server";

describe("typed methods", () => {
  it("§4.3, §4.4 upsert then issue a ticket: data is returned as is, requestId is attached but not enumerable", async () => {
    const server = await startServer({ dataset: createDataset(0) });
    const { client } = clientFor(server);
    const upserted = await client.upsertViewer({ externalUserId: "crm-10086", phone: "13800138000", displayName: "张三" });
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

    const { loginUrl, loginTicket, expiresAt } = await client.issueLoginTicket({ uid: viewer.uid, ticketCode: TICKET_CODE });
    expect(loginUrl).toBe(`https://watch.example.com/w/${TICKET_CODE}#login_ticket=${loginTicket}`);
    expect(Date.parse(expiresAt)).toBeGreaterThan(Date.now());
  });

  it("§4.5, §4.6 overview and one page of the detail query", async () => {
    const server = await startServer({ dataset: createDataset(12) });
    const { client } = clientFor(server);
    const overview = await client.getWatchOverview({ ticketCode: TICKET_CODE, playbackMode: "LIVE" });
    expect(overview).toMatchObject({ ticketCode: TICKET_CODE, dataState: "FINAL", registered: { viewerCount: 12 } });
    const page = await client.queryViewerWatch({ ticketCode: TICKET_CODE, playbackMode: "ALL", sort: "LAST_WATCHED_DESC", pageSize: 5 });
    expect(page.items).toHaveLength(5);
    expect(page.nextCursor).toEqual(expect.any(String));
  });

  it("§4 every request is a POST of JSON to the operation's exact path with each signature header once", async () => {
    const server = await startServer({ dataset: createDataset(1) });
    const { client } = clientFor(server);
    await client.getWatchOverview({ ticketCode: TICKET_CODE, playbackMode: "ALL" });
    const [request] = server.received;
    expect(request).toMatchObject({ method: "POST", url: "/api/v1/open/watch-data/overview", verdict: "ok" });
    for (const name of ["content-type", "x-api-key", "x-timestamp", "x-nonce", "x-signature"]) expect(request!.headers[name]).toHaveLength(1);
    expect(request!.header("content-encoding")).toBeUndefined();
    expect(request!.body.toString("utf8")).toBe('{"ticketCode":"WBN8K2QX","playbackMode":"ALL"}');
  });
});

describe("§5.2 the signed path is the URL's real path", () => {
  it.each([
    { rule: "a base URL with a path prefix signs the prefix", prefix: "/gateway/webinar", suffix: "" },
    { rule: "a trailing slash on the base URL adds no empty segment", prefix: "/gateway/webinar", suffix: "/" },
    { rule: "a bare origin with a trailing slash", prefix: "", suffix: "/" },
  ])("$rule", async ({ prefix, suffix }) => {
    const server = await startServer({ dataset: createDataset(1), pathPrefix: prefix });
    const { client } = clientFor(server, { baseUrl: `${server.baseUrl}${suffix}` });
    await client.getWatchOverview({ ticketCode: TICKET_CODE, playbackMode: "ALL" });
    expect(server.received[0]).toMatchObject({ url: `${prefix}/api/v1/open/watch-data/overview`, verdict: "ok" });
  });
});

describe("methods with and without middlewares", () => {
  // Until client.raw.use() adds a middleware, the methods skip openapi-fetch's Request; what is sent must not change.
  const sent = (request: ReceivedRequest) => ({
    method: request.method,
    url: request.url,
    verdict: request.verdict,
    body: request.body.toString("utf8"),
    headerNames: Object.keys(request.headers),
    headers: Object.fromEntries(Object.entries(request.headers).filter(([name]) => !["x-timestamp", "x-nonce", "x-signature", "date"].includes(name))),
  });

  it.each([
    { rule: "a bare origin", prefix: "", suffix: "" },
    { rule: "a base URL with a path prefix and a trailing slash", prefix: "/gateway/webinar", suffix: "/" },
  ])("§5.2 a method sends the same URL, headers and bytes as through a middleware ($rule)", async ({ prefix, suffix }) => {
    const server = await startServer({ dataset: createDataset(0), pathPrefix: prefix });
    const direct = clientFor(server, { baseUrl: `${server.baseUrl}${suffix}` }).client;
    const throughMiddleware = clientFor(server, { baseUrl: `${server.baseUrl}${suffix}` }).client;
    throughMiddleware.raw.use({ onRequest: () => undefined });
    const body = { externalUserId: "crm-10086", phone: "13800138000", displayName: "张三 🎉" };
    await direct.upsertViewer(body);
    await throughMiddleware.upsertViewer(body);
    const [first, second] = server.received.map(sent);
    expect(first).toMatchObject({ verdict: "ok", url: `${prefix}/api/v1/open/viewers/upsert`, body: JSON.stringify(body) });
    expect(second).toEqual(first);
  });

  it("once a middleware is added, the methods' requests go through it", async () => {
    const server = await startServer({ dataset: createDataset(1) });
    const { client } = clientFor(server);
    await client.getWatchOverview({ ticketCode: TICKET_CODE, playbackMode: "ALL" });
    client.raw.use({
      onRequest: ({ request }) => {
        request.headers.set("x-trace-id", "t-42");
      },
    });
    await client.getWatchOverview({ ticketCode: TICKET_CODE, playbackMode: "ALL" });
    expect(server.received.map((request) => [request.verdict, request.header("x-trace-id")])).toEqual([
      ["ok", undefined],
      ["ok", "t-42"],
    ]);
  });

  it("a method's signal aborts it on either path", async () => {
    const server = await startServer({ dataset: createDataset(1) });
    server.script("*", { status: 200, json: {}, delayMs: 5_000 }, { status: 200, json: {}, delayMs: 5_000 });
    const direct = clientFor(server).client;
    const throughMiddleware = clientFor(server).client;
    throughMiddleware.raw.use({ onRequest: () => undefined });
    for (const client of [direct, throughMiddleware]) {
      const controller = new AbortController();
      const call = client.getWatchOverview({ ticketCode: TICKET_CODE, playbackMode: "ALL" }, { signal: controller.signal });
      setTimeout(() => controller.abort(new Error("caller gave up")), 50);
      await expect(call).rejects.toThrow("caller gave up");
    }
  });
});

describe("client.raw", () => {
  it("is the signed openapi-fetch client: { data } is the whole envelope, { error } the error envelope", async () => {
    const server = await startServer({ dataset: createDataset(1) });
    const { client } = clientFor(server);
    const ok = await client.raw.POST("/api/v1/open/watch-data/overview", { body: { ticketCode: TICKET_CODE, playbackMode: "ALL" } });
    expect(ok.data?.data.ticketCode).toBe(TICKET_CODE);
    expect(ok.data?.requestId).toMatch(/^req_/);
    const failed = await client.raw.POST("/api/v1/open/watch-data/overview", { body: { ticketCode: "NOPE", playbackMode: "ALL" } });
    expect(failed.error).toMatchObject({ error: { code: "WEBINAR_NOT_FOUND" } });
    expect(failed.response.status).toBe(404);
    expect(server.received.map((request) => request.verdict)).toEqual(["ok", "ok"]);
  });

  it("signing runs after every middleware: a middleware that replaces the request is signed over its bytes", async () => {
    const server = await startServer({ dataset: createDataset(1) });
    const { client } = clientFor(server);
    client.raw.use({
      onRequest: ({ request }) =>
        new Request(request.url, { method: "POST", headers: { "content-type": "application/json", "x-trace-id": "t-42" }, body: '{"ticketCode":"WBN8K2QX","playbackMode":"REPLAY"}' }),
    });
    const { data } = await client.raw.POST("/api/v1/open/watch-data/overview", { body: { ticketCode: TICKET_CODE, playbackMode: "ALL" } });
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
    { rule: "a base URL with a query string", options: { ...valid, baseUrl: "https://api.example.com/?tenant=1" }, error: /query/ },
    { rule: "a base URL with credentials", options: { ...valid, baseUrl: "https://user:pw@api.example.com" }, error: /credentials/ },
    { rule: "a non-http base URL", options: { ...valid, baseUrl: "ftp://api.example.com" }, error: /http/ },
    { rule: "a zero timeout", options: { ...valid, timeoutMs: 0 }, error: /timeoutMs/ },
    { rule: "zero attempts", options: { ...valid, retry: { maxAttempts: 0 } }, error: /maxAttempts/ },
    { rule: "a negative skew threshold", options: { ...valid, clockSkew: { thresholdSeconds: -1 } }, error: /thresholdSeconds/ },
  ])("rejects $rule at creation", ({ options, error }) => {
    expect(() => createWebinarClient(options)).toThrow(error);
  });

  it("a nonce source returning an invalid nonce fails the call before anything is sent", async () => {
    const server = await startServer();
    const { client } = clientFor(server, { nonceSource: () => "short" });
    await expect(client.getWatchOverview({ ticketCode: TICKET_CODE, playbackMode: "ALL" })).rejects.toThrow(/nonceSource/);
    expect(server.received).toHaveLength(0);
  });
});

describe("browser guard", () => {
  const scope = globalThis as { window?: unknown; document?: unknown };
  afterEach(() => {
    delete scope.window;
    delete scope.document;
  });
  const options: WebinarClientOptions = { baseUrl: "https://api.example.com", apiKey: TEST_API_KEY, secret: TEST_SECRET };

  it.each(["window", "document"] as const)("throws where globalThis.%s exists", (name) => {
    scope[name] = {};
    expect(() => createWebinarClient(options)).toThrow(/browser/);
  });

  it("dangerouslyAllowBrowser: true allows it", () => {
    scope.window = {};
    expect(createWebinarClient({ ...options, dangerouslyAllowBrowser: true }).raw).toBeDefined();
  });
});
