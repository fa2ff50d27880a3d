/**
 * What only an adapter can get wrong: reading the raw body (limits, streams, a body parser mounted first),
 * mounting, and handing the validated body to the framework. The shared behaviour is in request-matrix.test.ts.
 */
import { createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { operations } from "@org/webinar-types";
import { createRequestVerifier, verifyNodeRequest, verifyWebRequest, webinarExpress, webinarFastify } from "../src/index";
import express from "express";
import Fastify from "fastify";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ALLOWED_ORIGIN, createTestOptions, NOW_SECONDS, signedRequest, TEST_MAX_BODY_BYTES, withHeader } from "./support/fixture";
import { sendOverHttp } from "./support/runners";

const UPSERT = operations.upsertViewer.path;
const upsertBody = '{"externalUserId":" crm-000123 ","phone":""}';

const servers: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((close) => close()));
});

async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  servers.push(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return (server.address() as AddressInfo).port;
}

/** Sends a chunked request (no Content-Length) in pieces; resolves status, headers and body text. */
function sendChunked(port: number, headers: Array<[string, string]>, chunks: string[]): Promise<{ status: number; headers: Record<string, unknown>; text: string }> {
  return new Promise((resolve, reject) => {
    const flat = ["Host", `127.0.0.1:${port}`, "Transfer-Encoding", "chunked", ...headers.flat()];
    const outgoing = httpRequest({ host: "127.0.0.1", port, method: "POST", path: UPSERT, headers: flat, agent: false }, (response) => {
      let text = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => (text += chunk));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers, text }));
    });
    outgoing.on("error", reject);
    for (const chunk of chunks) outgoing.write(chunk);
    outgoing.end();
  });
}

describe("Express adapter", () => {
  it("answers 500 INTERNAL_ERROR (and tells onError) when a body parser consumed the body first", async () => {
    const onError = vi.fn();
    const app = express();
    app.use(express.json());
    app.use(webinarExpress(createRequestVerifier(createTestOptions({ onError }))));
    app.post(UPSERT, (_req, res) => void res.json({ reached: true }));
    const port = await listen(createServer(app));
    const response = await sendOverHttp(port, signedRequest({ path: UPSERT, body: upsertBody }));
    expect(response).toMatchObject({ status: 500, json: { error: { code: "INTERNAL_ERROR", message: "unexpected server error" } } });
    expect(onError).toHaveBeenCalledWith(expect.any(TypeError), "adapter");
  });

  it("works mounted under a path prefix: the signed path is the original URL", async () => {
    const app = express();
    const router = express.Router();
    router.post("/v1/open/viewers/upsert", (req, res) => void res.json({ requestId: req.webinar!.requestId, data: req.webinar!.body }));
    app.use("/api", webinarExpress(createTestOptions()), router);
    const port = await listen(createServer(app));
    const response = await sendOverHttp(port, signedRequest({ path: UPSERT, body: upsertBody }));
    expect(response).toMatchObject({ status: 200, json: { data: { externalUserId: "crm-000123" } } });
  });
});

describe("node:http adapter", () => {
  const start = async () => {
    const verifier = createRequestVerifier(createTestOptions());
    return listen(
      createServer(async (req, res) => {
        const webinar = await verifyNodeRequest(req, res, verifier);
        if (webinar) res.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify({ requestId: webinar.requestId, data: webinar.body }));
      }),
    );
  };

  it("§8 a chunked body growing past the limit -> 400 REQUEST_INVALID, connection closed", async () => {
    const port = await start();
    const signed = signedRequest({ path: UPSERT, body: "{}" });
    const piece = " ".repeat(4096);
    const response = await sendChunked(port, signed.headers, ["{}", ...Array<string>(TEST_MAX_BODY_BYTES / 4096 + 2).fill(piece)]);
    expect(response.status).toBe(400);
    expect(JSON.parse(response.text)).toMatchObject({ error: { code: "REQUEST_INVALID", message: `the request body exceeds ${TEST_MAX_BODY_BYTES} bytes` } });
    expect(response.headers.connection).toBe("close");
  });

  it("§5.2 a chunked body within the limit is verified over all its bytes", async () => {
    const port = await start();
    const signed = signedRequest({ path: UPSERT, body: upsertBody });
    const response = await sendChunked(port, signed.headers, [upsertBody.slice(0, 10), upsertBody.slice(10)]);
    expect(response.status).toBe(200);
    expect(JSON.parse(response.text)).toMatchObject({ data: { externalUserId: "crm-000123" } });
  });

  it("§8 a declared Content-Length over the limit is refused before the body is read", async () => {
    const port = await start();
    const signed = withHeader(signedRequest({ path: UPSERT, body: "{}" }), "Content-Length", String(TEST_MAX_BODY_BYTES + 1));
    const response = await new Promise<{ status: number }>((resolve, reject) => {
      const flat = ["Host", `127.0.0.1:${port}`, ...signed.headers.flat()];
      const outgoing = httpRequest({ host: "127.0.0.1", port, method: "POST", path: UPSERT, headers: flat, agent: false }, (res) => {
        res.resume();
        resolve({ status: res.statusCode ?? 0 });
      });
      outgoing.on("error", reject);
      // Only the first bytes are sent: the answer must not wait for the rest.
      outgoing.write("{}");
    });
    expect(response.status).toBe(400);
  });
});

describe("Fastify adapter", () => {
  it("the route's request.body is the validated, trimmed body (the plugin's raw-body parser)", async () => {
    const app = Fastify();
    await app.register(webinarFastify(createTestOptions()));
    app.post(UPSERT, async (request) => ({ body: request.body }));
    await app.listen({ port: 0, host: "127.0.0.1" });
    servers.push(async () => {
      app.server.closeAllConnections();
      await app.close();
    });
    const response = await sendOverHttp((app.server.address() as AddressInfo).port, signedRequest({ path: UPSERT, body: upsertBody }));
    expect(response).toMatchObject({ status: 200, json: { body: { externalUserId: "crm-000123" } } });
  });
});

describe("Web adapter (verifyWebRequest on a plain Request)", () => {
  const toRequest = (wire: ReturnType<typeof signedRequest>, init: RequestInit = {}) =>
    new Request(`http://127.0.0.1${wire.path}`, { method: wire.method, headers: wire.headers, body: wire.body as Uint8Array<ArrayBuffer>, ...init });

  it("§5.2 a signed request -> the verified request with the headers for the answer", async () => {
    const verified = await verifyWebRequest(toRequest(signedRequest({ path: UPSERT, body: upsertBody })), createTestOptions());
    expect(verified).not.toBeInstanceOf(Response);
    if (verified instanceof Response) return;
    expect(verified).toMatchObject({ operationId: "upsertViewer", body: { externalUserId: "crm-000123" } });
    expect(verified.headers["X-Request-Id"]).toBe(verified.requestId);
  });

  it("§4 an empty query string is still seen (request.url keeps the '?') -> 401", async () => {
    const response = await verifyWebRequest(toRequest(signedRequest({ path: `${UPSERT}?`, body: upsertBody })), createTestOptions());
    expect(response).toBeInstanceOf(Response);
    expect((response as Response).status).toBe(401);
  });

  it("§8 a streamed body past the limit -> 400 REQUEST_INVALID Response with X-Request-Id", async () => {
    const wire = signedRequest({ path: UPSERT, body: "{}" });
    const chunk = new TextEncoder().encode(" ".repeat(4096));
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        sent += 1;
        if (sent > 100) controller.close();
        else controller.enqueue(chunk);
      },
    });
    const response = (await verifyWebRequest(toRequest(wire, { body, duplex: "half" } as RequestInit), createTestOptions())) as Response;
    expect(response.status).toBe(400);
    expect(response.headers.get("X-Request-Id")).toMatch(/^req_/);
    expect(await response.json()).toMatchObject({ error: { code: "REQUEST_INVALID" } });
    expect(sent).toBeLessThan(100);
  });

  it("§5.3 a preflight from an allowed origin -> 204 Response", async () => {
    const request = new Request(`http://127.0.0.1${UPSERT}`, { method: "OPTIONS", headers: { Origin: ALLOWED_ORIGIN, "Access-Control-Request-Method": "POST" } });
    const response = (await verifyWebRequest(request, createTestOptions())) as Response;
    expect(response.status).toBe(204);
    expect(response.headers.get("Access-Control-Allow-Origin")).toBe(ALLOWED_ORIGIN);
    expect(await response.text()).toBe("");
  });

  it("options passed directly are turned into one verifier and reused (replays are caught)", async () => {
    const options = createTestOptions();
    const wire = signedRequest({ path: UPSERT, body: upsertBody, timestamp: String(NOW_SECONDS) });
    expect(await verifyWebRequest(toRequest(wire), options)).not.toBeInstanceOf(Response);
    expect(((await verifyWebRequest(toRequest(wire), options)) as Response).status).toBe(409);
  });
});
