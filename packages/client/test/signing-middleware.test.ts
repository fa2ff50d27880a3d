/**
 * createSigningMiddleware on a plain openapi-fetch client, as its users write it, against the verifying server
 * (which checks every request with the published algorithm over the bytes and path it received): what is signed,
 * fresh values per call, clock-skew correction, base-URL prefixes, and what the middleware refuses.
 */
import { afterEach, describe, expect, it } from "vitest";
import createClient, { type Middleware } from "openapi-fetch";
import { createSigningMiddleware, type SigningOptions } from "@org/webinar-client";
import type { paths } from "@org/webinar-types";
import { createDataset, TICKET_CODE } from "./support/dataset";
import { rejectionOf, startServer } from "./support/fixtures";
import { TEST_API_KEY, TEST_SECRET, type VerifyingServer } from "./support/verifying-server";

const overviewPath = "/api/v1/open/watch-data/overview";
const overviewBody = { ticketCode: TICKET_CODE, playbackMode: "ALL" } as const;
const TEN_MINUTES = 10 * 60_000;

/** An openapi-fetch client of the server, as openapi-fetch's docs start, with the middlewares given. */
function apiFor(server: VerifyingServer, middlewares: Middleware[], options: { baseUrl?: string } = {}) {
  const api = createClient<paths>({ baseUrl: options.baseUrl ?? server.baseUrl });
  api.use(...middlewares);
  return api;
}

const signing = (options: Partial<SigningOptions> = {}) =>
  createSigningMiddleware({ apiKey: TEST_API_KEY, secret: TEST_SECRET, ...options });

describe("createSigningMiddleware signs what is sent", () => {
  it("Signing requests: a plain openapi-fetch client with the middleware gets typed data from a verifying server", async () => {
    const server = await startServer({ dataset: createDataset(0) });
    const api = apiFor(server, [signing()]);
    const { data, error } = await api.POST("/api/v1/open/viewers/upsert", {
      body: { externalUserId: "crm-1", displayName: "张三 🎉" },
    });
    expect(error).toBeUndefined();
    expect(data?.data.viewer).toMatchObject({ externalUserId: "crm-1", displayName: "张三 🎉" });
    const [request] = server.received;
    expect(request).toMatchObject({ method: "POST", url: "/api/v1/open/viewers/upsert", verdict: "ok" });
    for (const name of ["content-type", "x-api-key", "x-timestamp", "x-nonce", "x-signature"])
      expect(request!.headers[name]).toHaveLength(1);
    expect(request!.header("content-type")).toBe("application/json");
  });

  it("Signing requests step 1: the exact bytes sent are signed, whatever serializer produced them", async () => {
    const server = await startServer({ dataset: createDataset(1) });
    const api = apiFor(server, [signing()]);
    // Pretty-printed, with \u escapes: a re-serialization would hash other bytes.
    const bytes = '{\n  "ticketCode": "WBN8K2QX",\n  "playbackMode": "\\u0041LL"\n}';
    const { data } = await api.POST(overviewPath, { body: overviewBody, bodySerializer: () => bytes });
    expect(data?.data.ticketCode).toBe(TICKET_CODE);
    expect(server.received[0]!.body.toString("utf8")).toBe(bytes);
    expect(server.received[0]!.verdict).toBe("ok");
  });

  it("a middleware added before it that changes the body still gets a valid signature (it signs what earlier middlewares produced)", async () => {
    const server = await startServer({ dataset: createDataset(1) });
    const replaceBody: Middleware = {
      onRequest: ({ request }) =>
        new Request(request, { body: JSON.stringify({ ...overviewBody, playbackMode: "REPLAY" }) }),
    };
    const api = apiFor(server, [replaceBody, signing()]);
    const { data } = await api.POST(overviewPath, { body: overviewBody });
    expect(data?.data.dataState).toBe("PROVISIONAL");
    expect(server.received[0]).toMatchObject({ verdict: "ok", json: { playbackMode: "REPLAY" } });
  });

  it("a middleware added after it that changes the body breaks the signature: 401 OPEN_API_UNAUTHORIZED (why it must be last)", async () => {
    const server = await startServer({ dataset: createDataset(1) });
    const replaceBody: Middleware = {
      onRequest: ({ request }) =>
        new Request(request, { body: JSON.stringify({ ...overviewBody, playbackMode: "REPLAY" }) }),
    };
    const api = apiFor(server, [signing(), replaceBody]);
    const { error, response } = await api.POST(overviewPath, { body: overviewBody });
    expect(response.status).toBe(401);
    expect(error).toMatchObject({ error: { code: "OPEN_API_UNAUTHORIZED" } });
    expect(server.received[0]!.verdict).toBe("OPEN_API_UNAUTHORIZED");
  });

  it("signature headers set by the caller are replaced, never sent twice", async () => {
    const server = await startServer({ dataset: createDataset(1) });
    const api = apiFor(server, [signing()]);
    await api.POST(overviewPath, {
      body: overviewBody,
      headers: { "X-Nonce": "caller-nonce-0123456789", "X-Signature": "0".repeat(64), "X-API-Key": "other" },
    });
    const [request] = server.received;
    expect(request!.verdict).toBe("ok");
    expect(request!.headers["x-nonce"]).toHaveLength(1);
    expect(request!.header("x-nonce")).not.toBe("caller-nonce-0123456789");
    expect(request!.header("x-api-key")).toBe(TEST_API_KEY);
  });
});

describe("fresh values per call", () => {
  it("Signing requests: every call (a retry is another call) gets a fresh nonce, timestamp and signature; the nonce is 16 CSPRNG bytes, never openapi-fetch's request id", async () => {
    const server = await startServer({ dataset: createDataset(1) });
    const requestIds: string[] = [];
    const recordId: Middleware = { onRequest: ({ id }) => void requestIds.push(id) };
    let now = Date.now();
    const api = apiFor(server, [recordId, signing({ clock: () => (now += 1000) })]);
    for (let attempt = 0; attempt < 3; attempt += 1) await api.POST(overviewPath, { body: overviewBody });
    const header = (name: string) => server.received.map((request) => request.header(name));
    expect(server.received.map((request) => request.verdict)).toEqual(["ok", "ok", "ok"]);
    expect(new Set(header("x-nonce")).size).toBe(3);
    expect(new Set(header("x-timestamp")).size).toBe(3);
    expect(new Set(header("x-signature")).size).toBe(3);
    for (const nonce of header("x-nonce")) {
      expect(nonce).toMatch(/^[0-9a-f]{32}$/);
      expect(requestIds).not.toContain(nonce);
    }
  });
});

describe("clock-skew correction", () => {
  it.each([
    { rule: "server clock 10 minutes ahead", offsetMs: TEN_MINUTES },
    { rule: "server clock 10 minutes behind", offsetMs: -TEN_MINUTES },
  ])(
    "$rule: the first call is refused (401), the answer's Date is learned, later calls are dated with the server's time",
    async ({ offsetMs }) => {
      const server = await startServer({ dataset: createDataset(1), clockOffsetMs: offsetMs });
      const api = apiFor(server, [signing()]);
      expect((await api.POST(overviewPath, { body: overviewBody })).response.status).toBe(401);
      expect((await api.POST(overviewPath, { body: overviewBody })).data?.data.ticketCode).toBe(TICKET_CODE);
      expect(server.received.map((request) => request.verdict)).toEqual(["OPEN_API_UNAUTHORIZED", "ok"]);
      const [first, second] = server.received.map((request) => Number(request.header("x-timestamp")));
      expect(Math.abs(second! - first! - offsetMs / 1000)).toBeLessThanOrEqual(2);
    },
  );

  it.each([
    { rule: "an offset within the default 30 s threshold is not applied", options: {}, shifted: false },
    { rule: "a custom threshold applies", options: { clockSkew: { thresholdSeconds: 5 } }, shifted: true },
    { rule: "clockSkew: false turns it off", options: { clockSkew: false as const }, shifted: false },
  ])("$rule", async ({ options, shifted }) => {
    const server = await startServer({ dataset: createDataset(1), clockOffsetMs: 20_000 });
    const local = Date.now();
    const api = apiFor(server, [signing({ clock: () => local, ...options })]);
    await api.POST(overviewPath, { body: overviewBody });
    await api.POST(overviewPath, { body: overviewBody });
    const second = Number(server.received[1]!.header("x-timestamp"));
    const localSeconds = Math.floor(local / 1000);
    if (shifted) expect(second - localSeconds).toBeGreaterThanOrEqual(19);
    else expect(Math.abs(second - localSeconds)).toBeLessThanOrEqual(1);
  });
});

describe("Signing requests: the signed path is the URL's real path", () => {
  it.each([
    { rule: "a base URL with a path prefix signs the prefix", prefix: "/gateway/webinar", suffix: "" },
    { rule: "a trailing slash on the base URL adds no empty segment", prefix: "/gateway/webinar", suffix: "/" },
    { rule: "a bare origin with a trailing slash", prefix: "", suffix: "/" },
  ])("$rule", async ({ prefix, suffix }) => {
    const server = await startServer({ dataset: createDataset(1), pathPrefix: prefix });
    const api = apiFor(server, [signing()], { baseUrl: `${server.baseUrl}${suffix}` });
    await api.POST(overviewPath, { body: overviewBody });
    expect(server.received[0]).toMatchObject({ url: `${prefix}${overviewPath}`, verdict: "ok" });
  });
});

describe("what the middleware refuses", () => {
  it("a URL with a query string: a clear error, nothing sent", async () => {
    const server = await startServer();
    const api = apiFor(server, [signing()]);
    const error = await rejectionOf(api.POST(overviewPath, { body: overviewBody, querySerializer: () => "debug=1" }));
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toMatch(/no query string or fragment.*\?debug=1/);
    expect(server.received).toHaveLength(0);
  });

  it("a method other than POST: a clear error, nothing sent", async () => {
    const server = await startServer();
    const toPut: Middleware = { onRequest: ({ request }) => new Request(request, { method: "PUT" }) };
    const api = apiFor(server, [toPut, signing()]);
    await expect(api.POST(overviewPath, { body: overviewBody })).rejects.toThrow(/POST/);
    expect(server.received).toHaveLength(0);
  });

  it("Signing requests: a redirect is never followed, even on a client created with openapi-fetch's default redirect: follow", async () => {
    const server = await startServer({ dataset: createDataset(1) });
    server.scriptGateway("*", { redirect: overviewPath, status: 307 });
    const api = apiFor(server, [signing()]);
    const error = await rejectionOf(api.POST(overviewPath, { body: overviewBody }));
    expect(String((error as { cause?: unknown }).cause)).toMatch(/redirect/);
    expect(server.received).toHaveLength(1);
  });

  it("a nonce source returning an invalid nonce: the call fails before anything is sent", async () => {
    const server = await startServer();
    const api = apiFor(server, [signing({ nonceSource: () => "short" })]);
    await expect(api.POST(overviewPath, { body: overviewBody })).rejects.toThrow(/nonceSource/);
    expect(server.received).toHaveLength(0);
  });

  it.each([
    { rule: "an empty secret (an unset environment variable)", options: { secret: "" }, error: /secret/ },
    { rule: "a missing API key", options: { apiKey: undefined as unknown as string }, error: /apiKey/ },
    { rule: "an API key with a line break", options: { apiKey: "key\nPOST" }, error: /apiKey/ },
    { rule: "a negative skew threshold", options: { clockSkew: { thresholdSeconds: -1 } }, error: /thresholdSeconds/ },
  ])("rejects $rule at creation", ({ options, error }) => {
    expect(() => signing(options)).toThrow(error);
  });
});

describe("browser guard", () => {
  const scope = globalThis as { window?: unknown };
  afterEach(() => {
    delete scope.window;
  });

  it("throws where a browser's globals exist, unless dangerouslyAllowBrowser is true", () => {
    scope.window = {};
    expect(() => signing()).toThrow(/browser/);
    expect(signing({ dangerouslyAllowBrowser: true }).onRequest).toBeTypeOf("function");
  });
});
