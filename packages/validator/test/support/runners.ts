/**
 * Ways to send a wire request and observe the answer: straight into the core verifier, and over real HTTP to
 * 127.0.0.1 into an app of each framework with the adapter mounted the way the README shows. Every app's
 * handler answers `{ requestId, data: { merchantId, operationId, body } }`, so the tests see what the handler got.
 */
import { spawn } from "node:child_process";
import { once } from "node:events";
import { createServer, request as httpRequest, type Server } from "node:http";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import { dirname, join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { serve, type HttpBindings } from "@hono/node-server";
import { operations } from "@org/webinar-types";
import {
  createRequestVerifier,
  verifyNodeRequest,
  verifyWebRequest,
  webinarExpress,
  webinarFastify,
  type RequestVerifierOptions,
  type VerifiedRequest,
} from "../../src/index";
import express from "express";
import Fastify from "fastify";
import { Hono } from "hono";
import { echo } from "./echo";
import type { WireRequest } from "./fixture";
import type { ObservedResponse } from "./request-matrix";

declare module "fastify" {
  interface FastifyRequest {
    webinar?: VerifiedRequest | null;
  }
}

export interface Runner {
  send(request: WireRequest): Promise<ObservedResponse>;
  close(): Promise<void>;
}

const paths = Object.values(operations).map((operation) => operation.path);
const lowercased = (headers: Record<string, string>) => Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));

/** The core pipeline, no HTTP: what every adapter must reproduce. */
export function coreRunner(options: RequestVerifierOptions): Runner {
  const verifier = createRequestVerifier(options);
  return {
    async send(request) {
      const result = await verifier.verify({ method: request.method, rawPath: request.path, headers: request.headers, body: request.body });
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
  if (!request.headers.some(([name]) => name.toLowerCase() === "content-length")) flat.push("Content-Length", String(request.body.byteLength));
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest({ host: "127.0.0.1", port, method: request.method, path: request.path, headers: flat, agent: false }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("error", reject);
      response.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8");
        const headers: Record<string, string> = {};
        for (const [name, value] of Object.entries(response.headers)) headers[name] = Array.isArray(value) ? value.join(", ") : String(value);
        let json: unknown;
        if (text !== "") {
          try {
            json = JSON.parse(text);
          } catch {
            json = { unparsed: text };
          }
        }
        resolve({ status: response.statusCode ?? 0, headers, json });
      });
    });
    outgoing.on("error", reject);
    outgoing.end(request.body);
  });
}

function listening(server: Server): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve((server.address() as AddressInfo).port));
  });
}

const closing = (server: Server) =>
  new Promise<void>((resolve, reject) => {
    server.closeAllConnections();
    server.close((error) => (error ? reject(error) : resolve()));
  });

const httpRunner = (port: number, close: () => Promise<void>): Runner => ({ send: (request) => sendOverHttp(port, request), close });

/** node:http with `verifyNodeRequest`. */
export async function nodeRunner(options: RequestVerifierOptions): Promise<Runner> {
  const verifier = createRequestVerifier(options);
  const server = createServer(async (req, res) => {
    const webinar = await verifyNodeRequest(req, res, verifier);
    if (webinar === undefined) return;
    res.setHeader("Content-Type", "application/json");
    res.end(JSON.stringify(echo(webinar)));
  });
  const port = await listening(server);
  return httpRunner(port, () => closing(server));
}

/** Express 5 with `webinarExpress` and no body parser. */
export async function expressRunner(options: RequestVerifierOptions): Promise<Runner> {
  const app = express();
  app.use(webinarExpress(createRequestVerifier(options)));
  for (const path of paths) app.post(path, (req, res) => void res.json(echo(req.webinar!)));
  const server = createServer(app);
  const port = await listening(server);
  return httpRunner(port, () => closing(server));
}

/** Fastify 5 with the `webinarFastify` plugin. */
export async function fastifyRunner(options: RequestVerifierOptions): Promise<Runner> {
  const app = Fastify();
  await app.register(webinarFastify(createRequestVerifier(options)));
  for (const path of paths) app.post(path, async (request) => echo(request.webinar!));
  await app.listen({ port: 0, host: "127.0.0.1" });
  const port = (app.server.address() as AddressInfo).port;
  return httpRunner(port, async () => {
    app.server.closeAllConnections();
    await app.close();
  });
}

/** Hono on @hono/node-server with `verifyWebRequest` (the raw request target from the Node request). */
export async function honoRunner(options: RequestVerifierOptions): Promise<Runner> {
  const verifier = createRequestVerifier(options);
  const app = new Hono<{ Bindings: HttpBindings; Variables: { webinar: VerifiedRequest } }>();
  app.use("*", async (c, next) => {
    const verified = await verifyWebRequest(c.req.raw, verifier, { rawPath: c.env.incoming.url });
    if (verified instanceof Response) return verified;
    c.set("webinar", verified);
    await next();
    for (const [name, value] of Object.entries(verified.headers)) c.res.headers.set(name, value);
    return undefined;
  });
  for (const path of paths) app.post(path, (c) => c.json(echo(c.get("webinar"))));
  const server = await new Promise<Server>((resolve) => {
    const started = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }, () => resolve(started as Server));
  });
  const port = (server.address() as AddressInfo).port;
  return httpRunner(port, () => closing(server));
}

/**
 * `verifyWebRequest` on `Bun.serve` in a Bun process (test/support/bun-server.ts): the Web adapter on a runtime
 * other than Node. That process builds the same test options itself (functions cannot cross processes), so
 * `options` is not used.
 */
export async function bunRunner(): Promise<Runner> {
  const bun = join(dirname(createRequire(import.meta.url).resolve("bun/package.json")), "bin", "bun.exe");
  const child = spawn(bun, [fileURLToPath(new URL("./bun-server.ts", import.meta.url))], { stdio: ["ignore", "pipe", "inherit"] });
  const exited = once(child, "exit");
  const [line] = (await Promise.race([once(createInterface({ input: child.stdout! }), "line"), exited.then(() => [])])) as string[];
  if (line === undefined) throw new Error("the Bun test server exited before listening");
  const { port, bun: version } = JSON.parse(line) as { port: number; bun?: string };
  if (version === undefined) throw new Error("the Bun test server did not run on Bun");
  return httpRunner(port, async () => {
    child.kill();
    await exited;
  });
}

/** Every runner the matrix runs against, by name. */
export const runnerFactories: ReadonlyArray<[string, (options: RequestVerifierOptions) => Runner | Promise<Runner>]> = [
  ["core", coreRunner],
  ["node:http adapter", nodeRunner],
  ["Express adapter", expressRunner],
  ["Fastify adapter", fastifyRunner],
  ["Web adapter (Hono)", honoRunner],
  ["Web adapter (Bun.serve on Bun)", bunRunner],
];
