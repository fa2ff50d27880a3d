import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, test } from "vitest";
import { bodyHash, canonicalString, verify } from "@org/webinar-signing";
import type { Fixture } from "./fixture";
import { measure, type Target } from "./measure";
import { operationById } from "./operations";

const fixture: Fixture = {
  credentials: { apiKey: "wk_bench_key", secret: "bench-secret" },
  ticketCode: "wbn-bench",
  watchTicketCode: "wbn-watch",
  existingExternalUserIds: ["existing-0", "existing-1"],
  existingUids: [10000, 10001],
  heartbeat: {
    ticketCode: "wbn-live",
    viewers: [
      { cookie: "webinar_session=s1", playbackId: "pb_0000000000000000000001" },
      { cookie: "webinar_session=s2", playbackId: "pb_0000000000000000000002" },
      { cookie: "webinar_session=s3", playbackId: "pb_0000000000000000000003" },
    ],
  },
};
const settings = { connections: 2, durationSeconds: 1, warmupSeconds: 0 };
const ticket = operationById("issueLoginTicket");
const heartbeat = operationById("heartbeat");

interface Received {
  headers: IncomingMessage["headers"];
  body: string;
}

let server: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server === undefined ? resolve() : server.close(() => resolve()))));

/** A stand-in server that records every request and answers each with `status` and `body`. */
async function standIn(status: number, body: string): Promise<{ target: Target; received: Received[] }> {
  const received: Received[] = [];
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
      res.writeHead(status, { "content-type": "application/json" }).end(body);
    });
  });
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    target: { process: { url, pid: process.pid, cpuSeconds: () => undefined, stop: async () => {} }, fixture },
    received,
  };
}

const rightAnswer = JSON.stringify({
  requestId: "req_1",
  data: { loginTicket: "lt_x", loginUrl: "https://w/wbn#login_ticket=lt_x", expiresAt: "2030-01-01T00:00:00Z" },
});

describe("measure: every answer is checked", () => {
  test.each([
    {
      name: "issueLoginTicket success envelope -> no errors",
      status: 200,
      body: rightAnswer,
      expected: { byStatus: {}, badShape: 0 },
      counted: 0,
    },
    {
      name: "401 OPEN_API_UNAUTHORIZED -> counted by status",
      status: 401,
      body: JSON.stringify({ requestId: "r", error: { code: "OPEN_API_UNAUTHORIZED", message: "no" } }),
      expected: "401",
      counted: 1,
    },
    {
      name: "200 without the operation's data fields -> bad shape",
      status: 200,
      body: JSON.stringify({ requestId: "r", data: {} }),
      expected: "badShape",
      counted: 1,
    },
    {
      name: "200 without requestId -> bad shape",
      status: 200,
      body: JSON.stringify({ data: JSON.parse(rightAnswer).data }),
      expected: "badShape",
      counted: 1,
    },
    {
      name: "200 that is not JSON -> bad shape",
      status: 200,
      body: "<html>ok</html>",
      expected: "badShape",
      counted: 1,
    },
  ])("$name", async ({ status, body, expected, counted }) => {
    const { target } = await standIn(status, body);
    const figures = await measure(ticket, [target], settings);
    expect(figures.requests).toBeGreaterThan(0);
    expect(figures.checked).toBeGreaterThanOrEqual(figures.requests);
    // Every checked answer is an error, or none is.
    expect(figures.errors.total).toBe(counted * figures.checked);
    if (expected === "401") expect(figures.errors.byStatus).toEqual({ 401: figures.checked });
    if (expected === "badShape") expect(figures.errors.badShape).toBe(figures.checked);
    expect(figures.cpuMicrosPerRequest).toBeNull();
  });
});

describe("measure: requests", () => {
  test("each is signed over its exact body with a fresh nonce (checked with @org/webinar-signing)", async () => {
    const { target, received } = await standIn(200, rightAnswer);
    await measure(ticket, [target], settings);
    expect(received.length).toBeGreaterThan(10);
    const nonces = new Set(received.map((request) => request.headers["x-nonce"]));
    expect(nonces.size).toBe(received.length);
    for (const request of received.slice(0, 20)) {
      const canonical = canonicalString({
        apiKey: String(request.headers["x-api-key"]),
        path: ticket.path,
        timestamp: String(request.headers["x-timestamp"]),
        nonce: String(request.headers["x-nonce"]),
        bodyHash: await bodyHash(request.body),
      });
      expect(await verify(fixture.credentials.secret, canonical, String(request.headers["x-signature"]))).toBe(true);
    }
  });

  test("issueLoginTicket bodies go round the existing viewers' uids", async () => {
    const { target, received } = await standIn(200, rightAnswer);
    await measure(ticket, [target], settings);
    const uids = new Set(received.map((request) => (JSON.parse(request.body) as { uid: number }).uid));
    expect([...uids].sort()).toEqual(fixture.existingUids);
  });
});

describe("measure: the watch page's heartbeats", () => {
  const heartbeatAnswer = JSON.stringify({
    requestId: "req_1",
    playbackId: "pb_0000000000000000000001",
    creditedSeconds: 1,
    watchSeconds: 12,
    ended: false,
  });

  test("go round the live viewers: each with its own session cookie and body, unsigned", async () => {
    const { target, received } = await standIn(200, heartbeatAnswer);
    const figures = await measure(heartbeat, [target], settings);
    expect(figures.errors.total).toBe(0);
    const sent = new Set(received.map((request) => `${request.headers.cookie} ${request.body}`));
    expect([...sent].sort()).toEqual(
      fixture.heartbeat!.viewers.map(
        (viewer) =>
          `${viewer.cookie} ${JSON.stringify({ playbackId: viewer.playbackId, playing: true, ticketCode: "wbn-live" })}`,
      ),
    );
    expect(received.every((request) => request.headers["x-signature"] === undefined)).toBe(true);
    expect(received.every((request) => request.headers["content-type"] === "application/json")).toBe(true);
  });

  test.each([
    {
      name: "an ended session's answer -> bad shape",
      status: 200,
      body: heartbeatAnswer.replace('"ended":false', '"ended":true'),
      expected: "badShape",
    },
    {
      name: "an Open API envelope {requestId, data} -> bad shape (the watch page API answers inline)",
      status: 200,
      body: JSON.stringify({ requestId: "r", data: JSON.parse(heartbeatAnswer) }),
      expected: "badShape",
    },
    {
      name: "404 PLAYBACK_NOT_FOUND -> counted by status",
      status: 404,
      body: JSON.stringify({ requestId: "r", error: { code: "PLAYBACK_NOT_FOUND", message: "no" } }),
      expected: "404",
    },
  ])("$name", async ({ status, body, expected }) => {
    const { target } = await standIn(status, body);
    const figures = await measure(heartbeat, [target], settings);
    expect(figures.checked).toBeGreaterThan(0);
    expect(figures.errors.total).toBe(figures.checked);
    if (expected === "404") expect(figures.errors.byStatus).toEqual({ 404: figures.checked });
    else expect(figures.errors.badShape).toBe(figures.checked);
  });

  test("the measured run's window is in the monotonic clock of this process", async () => {
    const { target } = await standIn(200, heartbeatAnswer);
    const before = Number(process.hrtime.bigint() / 1000n);
    const figures = await measure(heartbeat, [target], settings);
    const after = Number(process.hrtime.bigint() / 1000n);
    expect(figures.measuredFromMicros).toBeGreaterThanOrEqual(before);
    expect(figures.measuredToMicros).toBeLessThanOrEqual(after);
    // One measured second.
    expect(figures.measuredToMicros - figures.measuredFromMicros).toBeGreaterThanOrEqual(900_000);
  });
});

describe("measure: an offered load", () => {
  test("sends that many requests per second, not as many as the target answers", async () => {
    const { target } = await standIn(200, rightAnswer);
    const free = await measure(ticket, [target], settings);
    const offered = await measure(ticket, [target], { ...settings, offeredLoad: 40 });
    // A stand-in on loopback answers thousands a second; 40 offered a second are about 40 answered a second.
    // autocannon ends a run at its first sample after the duration, so a run of one second can last nearly two:
    // the rate is over the run's own length.
    expect(free.requests).toBeGreaterThan(400);
    expect(offered.requests).toBeGreaterThanOrEqual(30);
    expect(offered.requestsPerSecond).toBeGreaterThanOrEqual(30);
    expect(offered.requestsPerSecond).toBeLessThanOrEqual(50);
    expect(offered.errors.total).toBe(0);
  });
});
