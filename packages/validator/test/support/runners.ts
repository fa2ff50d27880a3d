/**
 * Ways to send a wire request and observe the answer: straight into the verifier, and into an app of each
 * framework built the way its getting-started page builds one, with the app's own routes and body parser beside
 * the adapter. Every app's operation handlers answer `{ requestId, data: { merchantId, operationId, body } }`, so
 * the tests see what the handler got.
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { createServer, request as httpRequest, type Server } from "node:http";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import { dirname, join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { serve } from "@hono/node-server";
import connect from "connect";
import express, { type Express } from "express";
import Fastify, { type FastifyInstance } from "fastify";
import { webinarExpress } from "../../src/adapters/express";
import { webinarFastify } from "../../src/adapters/fastify";
import { webinarNode, type WebinarIncomingMessage } from "../../src/adapters/node";
import { createRequestVerifier, type RequestVerifierOptions } from "../../src/index";
import { echo, operationPaths } from "./echo";
import type { WireRequest } from "./fixture";
import { createHonoApp } from "./hono-app";
import { toWebRequest } from "./web-request";
import type { ObservedResponse } from "./request-matrix";

export interface Runner {
  send(request: WireRequest): Promise<ObservedResponse>;
  close(): Promise<void>;
  /** An adapter in an app hands a path that is no operation to the app; the verifier alone answers it 404. */
  handsOtherPathsToApp: boolean;
}

const lowercased = (headers: Record<string, string>) =>
  Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));

/** What a Web `Response` says, as a runner reports it. */
export async function observe(response: Response): Promise<ObservedResponse> {
  const text = await response.text();
  const headers: Record<string, string> = {};
  for (const [name, value] of response.headers) headers[name] = value;
  return { status: response.status, headers, json: parseJson(text) };
}

function parseJson(text: string): unknown {
  if (text === "") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return { unparsed: text };
  }
}

/** The verifier with a request already taken apart (the form the Node adapters hand it). */
export function coreRunner(options: RequestVerifierOptions): Runner {
  const verifier = createRequestVerifier(options);
  return {
    handsOtherPathsToApp: false,
    async send(request) {
      const result = await verifier.verify({
        method: request.method,
        rawPath: request.path,
        headers: request.headers,
        body: request.body,
      });
      if (result.ok) return { status: 200, headers: lowercased(result.headers), json: echo(result) };
      return { status: result.status, headers: lowercased(result.headers), json: result.body ?? undefined };
    },
    close: async () => undefined,
  };
}

/** The verifier with a Web `Request` and the target as received, as a server that exposes it passes it. */
export function webRequestRunner(options: RequestVerifierOptions): Runner {
  const verifier = createRequestVerifier(options);
  return {
    handsOtherPathsToApp: false,
    async send(request) {
      const result = await verifier.verify(toWebRequest(request), { rawPath: request.path });
      if (result.ok) return { status: 200, headers: lowercased(result.headers), json: echo(result) };
      return { status: result.status, headers: lowercased(result.headers), json: result.body ?? undefined };
    },
    close: async () => undefined,
  };
}

/** Sends the request exactly as given (path unnormalized, repeated headers kept) with node:http. */
export function sendOverHttp(port: number, request: WireRequest): Promise<ObservedResponse> {
  const flat: string[] = ["Host", `127.0.0.1:${port}`];
  for (const [name, value] of request.headers) flat.push(name, value);
  if (!request.headers.some(([name]) => name.toLowerCase() === "content-length"))
    flat.push("Content-Length", String(request.body.byteLength));
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      { host: "127.0.0.1", port, method: request.method, path: request.path, headers: flat, agent: false },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("error", reject);
        response.on("end", () => {
          const headers: Record<string, string> = {};
          for (const [name, value] of Object.entries(response.headers))
            headers[name] = Array.isArray(value) ? value.join(", ") : String(value);
          resolve({
            status: response.statusCode ?? 0,
            headers,
            json: parseJson(Buffer.concat(chunks).toString("utf8")),
          });
        });
      },
    );
    outgoing.on("error", reject);
    outgoing.end(request.body);
  });
}

export function listening(server: Server): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve((server.address() as AddressInfo).port));
  });
}

export const closing = (server: Server) =>
  new Promise<void>((resolve, reject) => {
    server.closeAllConnections();
    server.close((error) => (error ? reject(error) : resolve()));
  });

const overHttp = (server: Server, handsOtherPathsToApp: boolean) =>
  listening(server).then(
    (port): Runner => ({
      handsOtherPathsToApp,
      send: (request) => sendOverHttp(port, request),
      close: () => closing(server),
    }),
  );

const sendJson = (res: import("node:http").ServerResponse, value: unknown) => {
  res.setHeader("Content-Type", "application/json");
  res.end(JSON.stringify(value));
};

/** node:http with `webinarNode` as the whole server (no `next`): other paths are its 404. */
export function nodeRunner(options: RequestVerifierOptions): Promise<Runner> {
  const webinar = webinarNode(createRequestVerifier(options));
  const server = createServer(async (req, res) => {
    const verified = await webinar(req, res);
    if (verified !== undefined) sendJson(res, echo(verified));
  });
  return overHttp(server, false);
}

/** Connect, as its README builds an app, with `webinarNode` and the app's own route beside it. */
export function connectRunner(options: RequestVerifierOptions): Promise<Runner> {
  const app = connect();
  app.use(webinarNode(createRequestVerifier(options)));
  app.use("/hello", (_req, res) => sendJson(res, { hello: "world" }));
  for (const path of operationPaths)
    app.use(path, (req: WebinarIncomingMessage, res) => sendJson(res, echo(req.webinar!)));
  return overHttp(createServer(app), true);
}

/** Express 5 as its hello-world page builds it, plus `express.json()` and the app's own routes. */
export function createExpressApp(options: RequestVerifierOptions): Express {
  const app = express();
  app.use(webinarExpress(createRequestVerifier(options)));
  app.use(express.json());
  app.get("/hello", (_req, res) => void res.send("Hello World!"));
  app.post("/other", (req, res) => void res.json({ received: req.body as unknown }));
  for (const path of operationPaths) app.post(path, (req, res) => void res.json(echo(req.webinar!)));
  return app;
}

export function expressRunner(options: RequestVerifierOptions): Promise<Runner> {
  return overHttp(createServer(createExpressApp(options)), true);
}

/** Fastify 5 as its getting-started page builds it, with the plugin and the app's own JSON route. */
export async function createFastifyApp(options: RequestVerifierOptions): Promise<FastifyInstance> {
  const app = Fastify();
  await app.register(webinarFastify(createRequestVerifier(options)));
  app.get("/", async () => ({ hello: "world" }));
  app.post("/other", async (request) => ({ received: request.body }));
  for (const path of operationPaths) app.post(path, async (request) => echo(request.webinar!));
  return app;
}

export async function fastifyRunner(options: RequestVerifierOptions): Promise<Runner> {
  const app = await createFastifyApp(options);
  await app.listen({ port: 0, host: "127.0.0.1" });
  const port = (app.server.address() as AddressInfo).port;
  return {
    handsOtherPathsToApp: true,
    send: (request) => sendOverHttp(port, request),
    async close() {
      app.server.closeAllConnections();
      await app.close();
    },
  };
}

/** The same Fastify app through `app.inject()` (light-my-request), no socket. */
export async function fastifyInjectRunner(options: RequestVerifierOptions): Promise<Runner> {
  const app = await createFastifyApp(options);
  return {
    handsOtherPathsToApp: true,
    async send(request) {
      const headers: Record<string, string | string[]> = {};
      for (const [name, value] of request.headers) {
        const previous = headers[name.toLowerCase()];
        headers[name.toLowerCase()] = previous === undefined ? value : [...[previous].flat(), value];
      }
      const response = await app.inject({
        method: request.method as "POST",
        url: request.path,
        headers,
        payload: Buffer.from(request.body),
      });
      const observed: Record<string, string> = {};
      for (const [name, value] of Object.entries(response.headers))
        observed[name] = Array.isArray(value) ? value.join(", ") : String(value);
      return { status: response.statusCode, headers: observed, json: parseJson(response.body) };
    },
    close: () => app.close(),
  };
}

/** The Hono app on @hono/node-server (the raw target comes from `c.env.incoming.url`). */
export async function honoRunner(options: RequestVerifierOptions): Promise<Runner> {
  const app = createHonoApp(options);
  const server = await new Promise<Server>((resolve) => {
    const started = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }, () => resolve(started as Server));
  });
  const port = (server.address() as AddressInfo).port;
  return { handsOtherPathsToApp: true, send: (request) => sendOverHttp(port, request), close: () => closing(server) };
}

/** The Hono app through `app.request()`, as Hono's testing guide does: no server, only the `Request`'s URL. */
export function honoRequestRunner(options: RequestVerifierOptions): Runner {
  const app = createHonoApp(options);
  return {
    handsOtherPathsToApp: true,
    send: async (request) => observe(await app.request(toWebRequest(request))),
    close: async () => undefined,
  };
}

/**
 * The Hono app on `Bun.serve` in a Bun process (test/support/bun-server.ts): the middleware on a runtime other
 * than Node. That process builds the same test options itself (functions cannot cross processes), so `options` is
 * not used.
 */
export async function bunRunner(): Promise<Runner> {
  const bun = join(dirname(createRequire(import.meta.url).resolve("bun/package.json")), "bin", "bun.exe");
  const child = spawn(bun, [fileURLToPath(new URL("./bun-server.ts", import.meta.url))], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const exited = once(child, "exit");
  const [line] = (await Promise.race([
    once(createInterface({ input: child.stdout! }), "line"),
    exited.then(() => []),
  ])) as string[];
  if (line === undefined) throw new Error("the Bun test server exited before listening");
  const { port, bun: version } = JSON.parse(line) as { port: number; bun?: string };
  if (version === undefined) throw new Error("the Bun test server did not run on Bun");
  return {
    handsOtherPathsToApp: true,
    send: (request) => sendOverHttp(port, request),
    async close() {
      child.kill();
      await exited;
    },
  };
}

/** Every runner the matrix runs against, by name. */
export const runnerFactories: ReadonlyArray<[string, (options: RequestVerifierOptions) => Runner | Promise<Runner>]> = [
  ["verifier (request taken apart)", coreRunner],
  ["verifier (Web Request)", webRequestRunner],
  ["node:http (webinarNode)", nodeRunner],
  ["Connect (webinarNode)", connectRunner],
  ["Express (webinarExpress)", expressRunner],
  ["Fastify listen (webinarFastify)", fastifyRunner],
  ["Fastify inject (webinarFastify)", fastifyInjectRunner],
  ["Hono on @hono/node-server (webinarHono)", honoRunner],
  ["Hono app.request (webinarHono)", honoRequestRunner],
  ["Hono on Bun.serve (webinarHono)", bunRunner],
];
