/**
 * webinarHono in a Hono app built as Hono's getting-started page builds one, with the app's own routes beside it:
 * through `app.request()` (Hono's testing guide) and on @hono/node-server. The handler after the middleware still
 * reads the body with Hono's own `c.req.json()`. The full request matrix runs against the same app in
 * request-matrix.test.ts (on Node and on Bun); hono-on-bun.test.ts runs `app.request()` on Bun.
 */
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { operations } from "@org/webinar-types";
import { Hono } from "hono";
import { requestId } from "hono/request-id";
import { afterEach, describe, expect, expectTypeOf, it } from "vitest";
import { webinarHono, type WebinarEnv } from "../src/adapters/hono";
import { createRequestVerifier, type VerifiedRequest } from "../src/index";
import { createTestOptions, signedRequest } from "./support/fixture";
import { createHonoApp } from "./support/hono-app";
import { closing, observe, sendOverHttp } from "./support/runners";
import { toWebRequest } from "./support/web-request";

const UPSERT = operations.upsertViewer.path;
const upsertBody = '{"externalUserId":" crm-000123 ","phone":""}';

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map(closing));
});

async function onNodeServer(app: Hono<WebinarEnv>): Promise<number> {
  const server = await new Promise<Server>((resolve) => {
    const started = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }, () => resolve(started as Server));
  });
  servers.push(server);
  return (server.address() as AddressInfo).port;
}

/** An app whose upsert handler reads the body again with Hono's own methods. */
function rereadingApp(): Hono<WebinarEnv> {
  const app = new Hono<WebinarEnv>();
  app.use(webinarHono(createRequestVerifier(createTestOptions())));
  app.post(UPSERT, async (c) =>
    c.json({ json: (await c.req.json()) as unknown, text: await c.req.text(), validated: c.get("webinar").body }),
  );
  return app;
}

describe("webinarHono through app.request()", () => {
  it("a signed upsert is verified and handled, with X-Request-Id on the handler's answer", async () => {
    const response = await createHonoApp(createTestOptions()).request(
      toWebRequest(signedRequest({ path: UPSERT, body: upsertBody })),
    );
    expect(response.status).toBe(200);
    const body = (await response.json()) as { requestId: string };
    expect(body).toMatchObject({ data: { operationId: "upsertViewer", body: { externalUserId: "crm-000123" } } });
    expect(response.headers.get("x-request-id")).toBe(body.requestId);
  });

  it("the app's own routes answer as before, and POST /other reads its body with c.req.json()", async () => {
    const app = createHonoApp(createTestOptions());
    expect(await (await app.request("/")).text()).toBe("Hello Hono!");
    const own = await app.request("/other", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: '{"a":1}',
    });
    expect(await own.json()).toEqual({ received: { a: 1 } });
  });

  it("the handler can still read the body as sent: c.req.json() and c.req.text()", async () => {
    const response = await rereadingApp().request(toWebRequest(signedRequest({ path: UPSERT, body: upsertBody })));
    expect(await response.json()).toEqual({
      json: { externalUserId: " crm-000123 ", phone: "" },
      text: upsertBody,
      validated: { externalUserId: "crm-000123" },
    });
  });

  it("a rejected request never reaches the handler: envelope, status, no-store, nosniff", async () => {
    const wire = signedRequest({
      path: UPSERT,
      body: upsertBody,
      key: { apiKey: "wk_test_active_7Qm2x9Lp", secret: "wrong" },
    });
    const observed = await observe(await createHonoApp(createTestOptions()).request(toWebRequest(wire)));
    expect(observed).toMatchObject({
      status: 401,
      headers: { "cache-control": "no-store", "x-content-type-options": "nosniff" },
      json: { error: { code: "OPEN_API_UNAUTHORIZED" } },
    });
  });

  it("with Hono's requestId middleware first, the answers carry its id: a rejection and a handled request", async () => {
    const app = new Hono<WebinarEnv>();
    app.use(requestId({ generator: () => "req_from_hono_middleware" }));
    app.use(webinarHono(createRequestVerifier(createTestOptions())));
    app.post(UPSERT, (c) => c.json({ requestId: c.get("webinar").requestId }));
    const handled = await app.request(toWebRequest(signedRequest({ path: UPSERT, body: upsertBody })));
    expect(handled.headers.get("x-request-id")).toBe("req_from_hono_middleware");
    expect(await handled.json()).toEqual({ requestId: "req_from_hono_middleware" });
    const wrongKey = { apiKey: "wk_test_active_7Qm2x9Lp", secret: "wrong" };
    const rejected = await app.request(toWebRequest(signedRequest({ path: UPSERT, body: upsertBody, key: wrongKey })));
    expect(rejected.status).toBe(401);
    expect(((await rejected.json()) as { requestId: string }).requestId).toBe("req_from_hono_middleware");
  });

  it("a path that is no operation is the app's own 404", async () => {
    const response = await createHonoApp(createTestOptions()).request("/api/v1/open/viewers", { method: "POST" });
    expect(response.status).toBe(404);
    expect(response.headers.get("x-request-id")).toBeNull();
  });
});

describe("webinarHono on @hono/node-server", () => {
  it("signed upserts and the app's own routes work on one server", async () => {
    const port = await onNodeServer(createHonoApp(createTestOptions()));
    expect(await sendOverHttp(port, signedRequest({ path: UPSERT, body: upsertBody }))).toMatchObject({
      status: 200,
      json: { data: { body: { externalUserId: "crm-000123" } } },
    });
    expect(await (await fetch(`http://127.0.0.1:${port}/`)).text()).toBe("Hello Hono!");
  });

  it("the handler re-reads the body with c.req.json() over HTTP too", async () => {
    const port = await onNodeServer(rereadingApp());
    expect(await sendOverHttp(port, signedRequest({ path: UPSERT, body: upsertBody }))).toMatchObject({
      status: 200,
      json: { text: upsertBody },
    });
  });

  it("reads the target as received from c.env.incoming: a dot-segment path signed as the normalized path -> 401", async () => {
    // The Request's URL resolves `/x/../`, so only the raw target shows that the client sent another path.
    const wire = signedRequest({
      path: UPSERT.replace("/viewers", "/x/../viewers"),
      signedPath: UPSERT,
      body: upsertBody,
    });
    const port = await onNodeServer(createHonoApp(createTestOptions()));
    expect(await sendOverHttp(port, wire)).toMatchObject({
      status: 401,
      json: { error: { code: "OPEN_API_UNAUTHORIZED" } },
    });
  });
});

describe("webinarHono: construction and types", () => {
  it("takes the verifier, not its options", () => {
    expect(() => webinarHono(createTestOptions() as never)).toThrow(/expects the verifier of createRequestVerifier/);
  });

  it("types c.get('webinar') through the Variables of WebinarEnv", () => {
    new Hono<WebinarEnv>().post(UPSERT, (c) => {
      expectTypeOf(c.get("webinar")).toEqualTypeOf<VerifiedRequest>();
      return c.text("");
    });
  });
});
