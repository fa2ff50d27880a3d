/**
 * webinarNode as a bare node:http server and as Connect middleware (Connect's README app): reading the raw body
 * (chunked, over the limit, a declared length over the limit), and handing other paths on untouched.
 */
import {
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type ServerResponse,
  type Server,
} from "node:http";
import { operations } from "@org/webinar-types";
import connect from "connect";
import { afterEach, describe, expect, it } from "vitest";
import { webinarNode, type WebinarIncomingMessage } from "../src/adapters/node";
import { createRequestVerifier } from "../src/index";
import { echo } from "./support/echo";
import { createTestOptions, signedRequest, TEST_MAX_BODY_BYTES, withHeader } from "./support/fixture";
import { closing, listening, sendOverHttp } from "./support/runners";

const UPSERT = operations.upsertViewer.path;
const upsertBody = '{"externalUserId":" crm-000123 ","phone":""}';

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map(closing));
});

async function start(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<number> {
  const server = createServer(handler);
  servers.push(server);
  return listening(server);
}

/** node:http with the handler as the whole server, as the package README shows. */
function bareServer(): Promise<number> {
  const webinar = webinarNode(createRequestVerifier(createTestOptions()));
  return start(async (req, res) => {
    const verified = await webinar(req, res);
    if (verified !== undefined)
      res.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify(echo(verified)));
  });
}

/** Sends a chunked request (no Content-Length) in pieces; resolves status, headers and body text. */
function sendChunked(
  port: number,
  headers: Array<[string, string]>,
  chunks: string[],
): Promise<{ status: number; headers: Record<string, unknown>; text: string }> {
  return new Promise((resolve, reject) => {
    const flat = ["Host", `127.0.0.1:${port}`, "Transfer-Encoding", "chunked", ...headers.flat()];
    const outgoing = httpRequest(
      { host: "127.0.0.1", port, method: "POST", path: UPSERT, headers: flat, agent: false },
      (response) => {
        let text = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => (text += chunk));
        response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers, text }));
      },
    );
    outgoing.on("error", reject);
    for (const chunk of chunks) outgoing.write(chunk);
    outgoing.end();
  });
}

describe("webinarNode as the whole node:http server", () => {
  it("Limits: a chunked body growing past the limit -> 400 REQUEST_INVALID, connection closed", async () => {
    const port = await bareServer();
    const signed = signedRequest({ path: UPSERT, body: "{}" });
    const piece = " ".repeat(4096);
    const response = await sendChunked(port, signed.headers, [
      "{}",
      ...Array<string>(TEST_MAX_BODY_BYTES / 4096 + 2).fill(piece),
    ]);
    expect(response.status).toBe(400);
    expect(JSON.parse(response.text)).toMatchObject({
      error: { code: "REQUEST_INVALID", message: `the request body exceeds ${TEST_MAX_BODY_BYTES} bytes` },
    });
    expect(response.headers.connection).toBe("close");
  });

  it("Signing requests: a chunked body within the limit is verified over all its bytes", async () => {
    const port = await bareServer();
    const signed = signedRequest({ path: UPSERT, body: upsertBody });
    const response = await sendChunked(port, signed.headers, [upsertBody.slice(0, 10), upsertBody.slice(10)]);
    expect(response.status).toBe(200);
    expect(JSON.parse(response.text)).toMatchObject({ data: { body: { externalUserId: "crm-000123" } } });
  });

  it("Limits: a declared Content-Length over the limit is refused before the body is read", async () => {
    const port = await bareServer();
    const signed = withHeader(
      signedRequest({ path: UPSERT, body: "{}" }),
      "Content-Length",
      String(TEST_MAX_BODY_BYTES + 1),
    );
    const response = await new Promise<{ status: number }>((resolve, reject) => {
      const flat = ["Host", `127.0.0.1:${port}`, ...signed.headers.flat()];
      const outgoing = httpRequest(
        { host: "127.0.0.1", port, method: "POST", path: UPSERT, headers: flat, agent: false },
        (res) => {
          res.resume();
          resolve({ status: res.statusCode ?? 0 });
        },
      );
      outgoing.on("error", reject);
      // Only the first bytes are sent: the answer must not wait for the rest.
      outgoing.write("{}");
    });
    expect(response.status).toBe(400);
  });

  it("Errors and retries: without next, a path that is no operation -> 404 REQUEST_INVALID", async () => {
    const port = await bareServer();
    expect(await sendOverHttp(port, signedRequest({ path: "/hello", body: "{}" }))).toMatchObject({
      status: 404,
      json: { error: { code: "REQUEST_INVALID" } },
    });
  });
});

describe("webinarNode as Connect middleware", () => {
  /** Connect's README app: middleware in order, the app's own body-reading route after ours. */
  function connectApp(): Promise<number> {
    const app = connect();
    app.use(webinarNode(createRequestVerifier(createTestOptions())));
    app.use("/echo-raw", (req, res) => {
      // The app's own route reads the stream itself: the middleware must have left it unread.
      const chunks: Buffer[] = [];
      req.on("data", (chunk: Buffer) => chunks.push(chunk));
      req.on("end", () => res.end(Buffer.concat(chunks)));
    });
    app.use(UPSERT, (req: WebinarIncomingMessage, res) => {
      res.setHeader("Content-Type", "application/json");
      res.end(JSON.stringify(echo(req.webinar!)));
    });
    return start(app);
  }

  it("a signed upsert continues with req.webinar and X-Request-Id on the response", async () => {
    const port = await connectApp();
    const response = await sendOverHttp(port, signedRequest({ path: UPSERT, body: upsertBody }));
    expect(response).toMatchObject({ status: 200, json: { data: { body: { externalUserId: "crm-000123" } } } });
    expect(response.headers["x-request-id"]).toBe((response.json as { requestId: string }).requestId);
  });

  it("another path goes to next() with its body unread", async () => {
    const port = await connectApp();
    const response = await fetch(`http://127.0.0.1:${port}/echo-raw`, { method: "POST", body: "the app's own bytes" });
    expect(await response.text()).toBe("the app's own bytes");
    expect(response.headers.get("x-request-id")).toBeNull();
  });

  it("takes the verifier, not its options", () => {
    expect(() => webinarNode(createTestOptions() as never)).toThrow(/expects the verifier of createRequestVerifier/);
  });
});
