/**
 * webinarExpress in an Express 5 app built as Express's hello-world page builds one, with the app's own routes
 * and `express.json()` beside it: both sides work, whichever is mounted first. The full request matrix runs
 * against the same app in request-matrix.test.ts.
 */
import { createServer, type Server } from "node:http";
import { operations } from "@org/webinar-types";
import express, { type Express } from "express";
import { afterEach, describe, expect, expectTypeOf, it, vi } from "vitest";
import { keepRawBody, webinarExpress } from "../src/adapters/express";
import { createRequestVerifier, type RequestVerifierOptions, type VerifiedRequest } from "../src/index";
import { echo } from "./support/echo";
import { createTestOptions, signedRequest } from "./support/fixture";
import { closing, createExpressApp, listening, sendOverHttp } from "./support/runners";

const UPSERT = operations.upsertViewer.path;
const upsertBody = '{"externalUserId":" crm-000123 ","phone":""}';

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map(closing));
});

async function start(app: Express): Promise<{ port: number; url: (path: string) => string }> {
  const server = createServer(app);
  servers.push(server);
  const port = await listening(server);
  return { port, url: (path) => `http://127.0.0.1:${port}${path}` };
}

const postJson = (url: string, value: unknown) =>
  fetch(url, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(value) });

/** An app whose JSON parser runs before the adapter, as an existing app that adds it later has it. */
function parserFirstApp(options: RequestVerifierOptions, parser: express.RequestHandler): Express {
  const app = express();
  app.use(parser);
  app.use(webinarExpress(createRequestVerifier(options)));
  app.get("/hello", (_req, res) => void res.send("Hello World!"));
  app.post("/other", (req, res) => void res.json({ received: req.body as unknown }));
  app.post(UPSERT, (req, res) => void res.json({ ...echo(req.webinar!), parsed: req.body as unknown }));
  return app;
}

describe("webinarExpress mounted before express.json() (the app of the docs)", () => {
  it("the app's own GET /hello answers as before", async () => {
    const { url } = await start(createExpressApp(createTestOptions()));
    const response = await fetch(url("/hello"));
    expect(response.status).toBe(200);
    expect(await response.text()).toBe("Hello World!");
  });

  it("the app's own POST /other still gets its body from express.json()", async () => {
    const { url } = await start(createExpressApp(createTestOptions()));
    const response = await postJson(url("/other"), { any: ["json", 1] });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ received: { any: ["json", 1] } });
  });

  it("a signed upsert reaches its route with req.webinar, and req.body is the validated body", async () => {
    const app = express();
    app.use(webinarExpress(createRequestVerifier(createTestOptions())));
    app.use(express.json());
    app.post(UPSERT, (req, res) => void res.json({ ...echo(req.webinar!), parsed: req.body as unknown }));
    const { port } = await start(app);
    const response = await sendOverHttp(port, signedRequest({ path: UPSERT, body: upsertBody }));
    expect(response).toMatchObject({
      status: 200,
      json: {
        data: { operationId: "upsertViewer", body: { externalUserId: "crm-000123" } },
        parsed: { externalUserId: "crm-000123" },
      },
    });
  });

  it("a request the app has no route for is the app's own 404, not the validator's", async () => {
    const { url } = await start(createExpressApp(createTestOptions()));
    const response = await postJson(url("/api/v1/open/viewers"), {});
    expect(response.status).toBe(404);
    expect(response.headers.get("x-request-id")).toBeNull();
  });
});

describe("webinarExpress mounted after express.json()", () => {
  it("with express.json({ verify: keepRawBody }) the kept bytes are verified; req.body stays the parser's", async () => {
    const { port, url } = await start(parserFirstApp(createTestOptions(), express.json({ verify: keepRawBody })));
    const response = await sendOverHttp(port, signedRequest({ path: UPSERT, body: upsertBody }));
    expect(response).toMatchObject({
      status: 200,
      json: { data: { body: { externalUserId: "crm-000123" } }, parsed: { externalUserId: " crm-000123 ", phone: "" } },
    });
    expect(await (await postJson(url("/other"), { a: 1 })).json()).toEqual({ received: { a: 1 } });
  });

  it("with kept bytes, a body changed after signing is still refused (the bytes, not the parse, are verified)", async () => {
    const { port } = await start(parserFirstApp(createTestOptions(), express.json({ verify: keepRawBody })));
    const response = await sendOverHttp(
      port,
      signedRequest({ path: UPSERT, body: upsertBody, signedBody: '{"externalUserId":"crm-000123"}' }),
    );
    expect(response).toMatchObject({ status: 401, json: { error: { code: "OPEN_API_UNAUTHORIZED" } } });
  });

  it("without kept bytes: 500 INTERNAL_ERROR saying how to mount it, told to onError; the app's routes still work", async () => {
    const onError = vi.fn();
    const { port, url } = await start(parserFirstApp(createTestOptions({ onError }), express.json()));
    const response = await sendOverHttp(port, signedRequest({ path: UPSERT, body: upsertBody }));
    expect(response.status).toBe(500);
    const error = (response.json as { error: { code: string; message: string } }).error;
    expect(error.code).toBe("INTERNAL_ERROR");
    expect(error.message).toContain("mount app.use(webinarExpress(verifier)) before express.json()");
    expect(error.message).toContain("express.json({ verify: keepRawBody })");
    expect(onError).toHaveBeenCalledWith(expect.objectContaining({ name: "AdapterMountError" }), "adapter");
    expect(response.headers["x-content-type-options"]).toBe("nosniff");
    expect(await (await postJson(url("/other"), { a: 1 })).json()).toEqual({ received: { a: 1 } });
  });

  it("without kept bytes, a request refused on its headers is answered as usual (the body is never needed)", async () => {
    const { port } = await start(parserFirstApp(createTestOptions(), express.json()));
    const response = await sendOverHttp(port, {
      ...signedRequest({ path: UPSERT, body: upsertBody }),
      method: "GET",
      body: new Uint8Array(),
    });
    expect(response).toMatchObject({
      status: 405,
      headers: { allow: "POST" },
      json: { error: { code: "REQUEST_INVALID" } },
    });
  });
});

describe("webinarExpress: paths and methods it answers itself", () => {
  const handled = vi.fn();
  /** An app with lenient routing (Express matches case-insensitively and ignores a trailing slash). */
  function lenientApp(): Express {
    const app = express();
    app.use(webinarExpress(createRequestVerifier(createTestOptions())));
    app.all(UPSERT, (_req, res) => {
      handled();
      res.json({ reached: true });
    });
    return app;
  }

  it.each([
    ["other letter case", UPSERT.toUpperCase()],
    ["a trailing slash", `${UPSERT}/`],
    ["a query string", `${UPSERT}?debug=1`],
  ])(
    "a non-canonical operation path (%s) -> 401 OPEN_API_UNAUTHORIZED, never the route Express would match",
    async (_what, path) => {
      handled.mockClear();
      const { port } = await start(lenientApp());
      const response = await sendOverHttp(port, signedRequest({ path, body: upsertBody }));
      expect(response).toMatchObject({ status: 401, json: { error: { code: "OPEN_API_UNAUTHORIZED" } } });
      expect(handled).not.toHaveBeenCalled();
    },
  );

  it.each(["GET", "PUT", "DELETE"])(
    "%s on an operation path -> 405 REQUEST_INVALID with Allow: POST, never the route",
    async (method) => {
      handled.mockClear();
      const { port } = await start(lenientApp());
      const response = await sendOverHttp(port, { method, path: UPSERT, headers: [], body: new Uint8Array() });
      expect(response).toMatchObject({
        status: 405,
        headers: { allow: "POST", "cache-control": "no-store" },
        json: { error: { code: "REQUEST_INVALID" } },
      });
      expect(handled).not.toHaveBeenCalled();
    },
  );

  it("mounted under a path prefix, the signed path is the original URL", async () => {
    const app = express();
    const router = express.Router();
    router.post("/v1/open/viewers/upsert", (req, res) => void res.json(echo(req.webinar!)));
    app.use("/api", webinarExpress(createRequestVerifier(createTestOptions())), router);
    const { port } = await start(app);
    const response = await sendOverHttp(port, signedRequest({ path: UPSERT, body: upsertBody }));
    expect(response).toMatchObject({ status: 200, json: { data: { body: { externalUserId: "crm-000123" } } } });
  });

  it("takes the verifier, not its options: options are refused when the app is built", () => {
    expect(() => webinarExpress(createTestOptions() as never)).toThrow(/expects the verifier of createRequestVerifier/);
  });

  it("types req.webinar and req.rawBody on Express's Request through declaration merging", () => {
    express().post(UPSERT, (req) => {
      expectTypeOf(req.webinar).toEqualTypeOf<VerifiedRequest | undefined>();
      expectTypeOf(req.rawBody).toEqualTypeOf<Uint8Array | undefined>();
    });
  });
});
