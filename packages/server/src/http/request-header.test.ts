import { request as httpRequest } from "node:http";
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { Hono } from "hono";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AppEnv } from "./app-env";
import { requestHeader } from "./request-header";

const NAMES = ["cookie", "x-repeated", "content-type", "authorization", "traceparent", "x-absent"] as const;

/** Each name's value by requestHeader, then by Hono's c.req.header, for comparison. */
const app = new Hono<AppEnv>().all("/", (c) => {
  const ours = Object.fromEntries(NAMES.map((name) => [name, requestHeader(c, name) ?? null]));
  const hono = Object.fromEntries(NAMES.map((name) => [name, c.req.header(name) ?? null]));
  return c.json({ ours, hono });
});

describe("requestHeader", () => {
  let server: ReturnType<typeof serve>;
  let port: number;
  beforeAll(async () => {
    server = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" });
    await new Promise<void>((resolve) => server.once("listening", () => resolve()));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const send = (headers: Record<string, string | string[]>) =>
    new Promise<{ ours: Record<string, string | null>; hono: Record<string, string | null> }>((resolve, reject) => {
      const call = httpRequest({ host: "127.0.0.1", port, path: "/", method: "POST", headers }, (response) => {
        let text = "";
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => (text += chunk));
        response.on("end", () => resolve(JSON.parse(text)));
      });
      call.on("error", reject);
      call.end("{}");
    });

  it("reads each header from the Node request as Hono's Headers would give it", async () => {
    const { ours, hono } = await send({
      Cookie: ["a=1", "ws=2"],
      "X-Repeated": ["first", "second"],
      "CONTENT-TYPE": "application/json",
      Authorization: "Bearer one",
      traceparent: "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01",
    });
    expect(ours).toEqual(hono);
    expect(ours).toMatchObject({ "x-repeated": "first, second", "content-type": "application/json", "x-absent": null });
    expect(ours.cookie).toMatch(/^a=1(; |, )ws=2$/);
  });

  it("keeps both values of a header sent twice that Node would keep once", async () => {
    // Node's req.headers keeps the first of two Authorization headers; Headers.get joins them, and so does this,
    // so a second credential can never hide behind the first.
    const { ours, hono } = await send({ Authorization: ["Bearer one", "Bearer two"] });
    expect(ours.authorization).toBe("Bearer one, Bearer two");
    expect(ours.authorization).toBe(hono.authorization);
  });

  it("asks Hono where there is no Node request (app.request)", async () => {
    const answer = await app.request("/", { headers: { "X-Repeated": "only", Cookie: "a=1" } });
    const { ours, hono } = (await answer.json()) as { ours: unknown; hono: unknown };
    expect(ours).toEqual(hono);
    expect(ours).toMatchObject({ "x-repeated": "only", cookie: "a=1" });
  });
});
