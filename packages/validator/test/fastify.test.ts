/**
 * webinarFastify in a Fastify 5 app built as Fastify's getting-started page builds one, with the app's own JSON
 * route beside it, under `inject()` and a real `listen()`: the app's routes and content-type parsers are untouched.
 * The full request matrix runs against the same app in request-matrix.test.ts.
 */
import type { AddressInfo } from "node:net";
import { operations } from "@org/webinar-types";
import Fastify, { type FastifyInstance } from "fastify";
import { afterEach, describe, expect, expectTypeOf, it } from "vitest";
import { webinarFastify } from "../src/adapters/fastify";
import { createRequestVerifier, type VerifiedRequest } from "../src/index";
import { createTestOptions, signedRequest, type WireRequest } from "./support/fixture";
import { createFastifyApp, sendOverHttp } from "./support/runners";

const UPSERT = operations.upsertViewer.path;
const upsertBody = '{"externalUserId":" crm-000123 ","phone":""}';

const apps: FastifyInstance[] = [];
afterEach(async () => {
  await Promise.all(
    apps.splice(0).map(async (app) => {
      app.server.closeAllConnections();
      await app.close();
    }),
  );
});

async function build(): Promise<FastifyInstance> {
  const app = await createFastifyApp(createTestOptions());
  apps.push(app);
  return app;
}

const inject = (app: FastifyInstance, wire: WireRequest) =>
  app.inject({
    method: "POST",
    url: wire.path,
    headers: Object.fromEntries(wire.headers),
    payload: Buffer.from(wire.body),
  });

describe("webinarFastify under app.inject()", () => {
  it("a signed upsert is verified and handled", async () => {
    const response = await inject(await build(), signedRequest({ path: UPSERT, body: upsertBody }));
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      data: { operationId: "upsertViewer", body: { externalUserId: "crm-000123" } },
    });
    expect(response.headers["x-request-id"]).toMatch(/^req_/);
  });

  it("the app's own JSON route parses its body with Fastify's own parser", async () => {
    const response = await (await build()).inject({ method: "POST", url: "/other", payload: { any: ["json", 1] } });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ received: { any: ["json", 1] } });
  });

  it("the app's own GET / answers as before", async () => {
    const response = await (await build()).inject({ method: "GET", url: "/" });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ hello: "world" });
  });

  it("a rejected request is answered from the hook: envelope, status, X-Request-Id, no-store, nosniff", async () => {
    const wire = signedRequest({
      path: UPSERT,
      body: upsertBody,
      key: { apiKey: "wk_test_active_7Qm2x9Lp", secret: "wrong" },
    });
    const response = await inject(await build(), wire);
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ error: { code: "OPEN_API_UNAUTHORIZED" } });
    expect(response.headers).toMatchObject({ "cache-control": "no-store", "x-content-type-options": "nosniff" });
  });
});

describe("webinarFastify over a real listen()", () => {
  it("signed upserts and the app's own JSON route both work on one server", async () => {
    const app = await build();
    await app.listen({ port: 0, host: "127.0.0.1" });
    const port = (app.server.address() as AddressInfo).port;
    expect(await sendOverHttp(port, signedRequest({ path: UPSERT, body: upsertBody }))).toMatchObject({
      status: 200,
      json: { data: { body: { externalUserId: "crm-000123" } } },
    });
    const own = await fetch(`http://127.0.0.1:${port}/other`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: '{"a":1}',
    });
    expect(own.status).toBe(200);
    expect(await own.json()).toEqual({ received: { a: 1 } });
  });
});

describe("webinarFastify leaves the instance as it was", () => {
  it("the instance's content-type parsers stay, including one the app added before registering", async () => {
    const app = Fastify();
    apps.push(app);
    app.addContentTypeParser("text/plain", { parseAs: "string" }, (_request, body, done) =>
      done(null, { text: String(body).toUpperCase() }),
    );
    await app.register(webinarFastify(createRequestVerifier(createTestOptions())));
    app.post("/shout", async (request) => request.body);
    expect(app.hasContentTypeParser("application/json")).toBe(true);
    expect(app.hasContentTypeParser("text/plain")).toBe(true);
    const response = await app.inject({
      method: "POST",
      url: "/shout",
      headers: { "content-type": "text/plain" },
      payload: "hello",
    });
    expect(response.json()).toEqual({ text: "HELLO" });
  });

  it("request.body on an operation route is the instance's own parse of the same bytes; request.webinar.body the validated one", async () => {
    const app = Fastify();
    apps.push(app);
    await app.register(webinarFastify(createRequestVerifier(createTestOptions())));
    app.post(UPSERT, async (request) => ({ parsed: request.body, validated: request.webinar!.body }));
    const response = await inject(app, signedRequest({ path: UPSERT, body: upsertBody }));
    expect(response.json()).toEqual({
      parsed: { externalUserId: " crm-000123 ", phone: "" },
      validated: { externalUserId: "crm-000123" },
    });
  });

  it("request.webinar is null on the app's own routes", async () => {
    const app = Fastify();
    apps.push(app);
    await app.register(webinarFastify(createRequestVerifier(createTestOptions())));
    app.post("/other", async (request) => ({ webinar: request.webinar }));
    expect((await app.inject({ method: "POST", url: "/other", payload: {} })).json()).toEqual({ webinar: null });
  });

  it("a non-canonical operation path is answered 401 before Fastify's router could match or miss it", async () => {
    const app = await build();
    for (const path of [UPSERT.toUpperCase(), `${UPSERT}?debug=1`, UPSERT.replace("upsert", "%75psert")]) {
      const response = await inject(app, signedRequest({ path, body: upsertBody }));
      expect({
        path,
        status: response.statusCode,
        code: response.json<{ error?: { code: string } }>().error?.code,
      }).toEqual({ path, status: 401, code: "OPEN_API_UNAUTHORIZED" });
    }
  });

  it("takes the verifier, not its options", () => {
    expect(() => webinarFastify(createTestOptions() as never)).toThrow(/expects the verifier of createRequestVerifier/);
  });

  it("types request.webinar through declaration merging", () => {
    Fastify().post(UPSERT, async (request) => {
      expectTypeOf(request.webinar).toEqualTypeOf<VerifiedRequest | null>();
    });
  });
});
