/**
 * The HTTP server's limits and manners, on the real process over raw sockets: header, request and keep-alive
 * time limits, the header size limit and the connection cap (each set through its environment variable); a
 * client that hangs up mid-body is an info line, not a 500; SIGTERM answers in-flight requests with
 * `Connection: close`, closes idle keep-alive connections and exits 0; and every answer of every route family
 * carries `X-Content-Type-Options: nosniff` and `Cache-Control: no-store`.
 */
import { connect, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signRequest } from "@org/webinar-signing";
import { ADMIN_TOKEN } from "./support/harness";
import { adminMerchant, startServerProcess, type ServerProcess } from "./support/server-process";

/** A raw connection that collects what the server sends and notes when the server closes it. */
interface RawConnection {
  socket: Socket;
  received(): string;
  closed: Promise<void>;
}

async function open(url: string): Promise<RawConnection> {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  await new Promise<void>((resolve, reject) => socket.once("connect", resolve).once("error", reject));
  let received = "";
  socket.setEncoding("utf8").on("data", (chunk: string) => (received += chunk));
  socket.on("error", () => undefined);
  const closed = new Promise<void>((resolve) => socket.once("close", () => resolve()));
  return { socket, received: () => received, closed };
}

/** Resolves once `text` arrived on the connection. */
async function waitFor(connection: RawConnection, text: string | RegExp): Promise<void> {
  while (!(typeof text === "string" ? connection.received().includes(text) : text.test(connection.received()))) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const TICKET = `lt_${"A".repeat(43)}`;
const exchangeBody = (ticketCode: string) => JSON.stringify({ ticketCode, loginTicket: TICKET });

describe("time limits, header size (small values through the environment)", () => {
  let server: ServerProcess;
  beforeAll(async () => {
    server = await startServerProcess({
      WEBINAR_DATA_DIR: "memory:",
      WEBINAR_HEADERS_TIMEOUT_MS: "1000",
      WEBINAR_REQUEST_TIMEOUT_MS: "2000",
      WEBINAR_KEEP_ALIVE_TIMEOUT_MS: "1000",
      WEBINAR_MAX_HEADER_BYTES: "2048",
    });
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
  });

  it("WEBINAR_HEADERS_TIMEOUT_MS: a client that never finishes its headers is answered 408 and disconnected", async () => {
    const connection = await open(server.url);
    connection.socket.write("GET /healthz HTTP/1.1\r\nHost: test\r\n");
    await connection.closed;
    expect(connection.received()).toMatch(/^HTTP\/1\.1 408/);
  }, 15_000);

  it("WEBINAR_REQUEST_TIMEOUT_MS: a client that never finishes its body is answered 408 and disconnected", async () => {
    const connection = await open(server.url);
    connection.socket.write(
      'POST /w/api/session HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"ticketCode"',
    );
    const trickle = setInterval(() => connection.socket.write(" "), 200);
    await connection.closed;
    clearInterval(trickle);
    expect(connection.received()).toMatch(/^HTTP\/1\.1 408/);
  }, 15_000);

  it("WEBINAR_KEEP_ALIVE_TIMEOUT_MS: an idle keep-alive connection is closed by the server", async () => {
    const connection = await open(server.url);
    connection.socket.write("GET /healthz HTTP/1.1\r\nHost: test\r\n\r\n");
    await waitFor(connection, '"status":"ok"');
    expect(connection.received()).toMatch(/Keep-Alive: timeout=1/i);
    await connection.closed;
  }, 15_000);

  it("WEBINAR_MAX_HEADER_BYTES: a larger header block is refused with 431", async () => {
    const connection = await open(server.url);
    connection.socket.write(`GET /healthz HTTP/1.1\r\nHost: test\r\nX-Padding: ${"p".repeat(4096)}\r\n\r\n`);
    await connection.closed;
    expect(connection.received()).toMatch(/^HTTP\/1\.1 431/);
  }, 15_000);
});

describe("connection cap (WEBINAR_MAX_CONNECTIONS)", () => {
  let server: ServerProcess;
  beforeAll(async () => {
    server = await startServerProcess({ WEBINAR_DATA_DIR: "memory:", WEBINAR_MAX_CONNECTIONS: "2" });
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
  });

  it("connections above the cap are closed at once; below it they are served again", async () => {
    const held = [await open(server.url), await open(server.url)];
    for (const connection of held) {
      connection.socket.write("GET /healthz HTTP/1.1\r\nHost: test\r\n\r\n");
      await waitFor(connection, '"status":"ok"');
    }
    const third = await open(server.url);
    third.socket.write("GET /healthz HTTP/1.1\r\nHost: test\r\n\r\n");
    await third.closed;
    expect(third.received()).toBe("");
    held[0]!.socket.destroy();
    await held[0]!.closed;
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await fetch(`${server.url}/healthz`, { headers: { connection: "close" } })).status).toBe(200);
    held[1]!.socket.destroy();
  }, 15_000);
});

describe("a server with the default limits", () => {
  let server: ServerProcess;
  let merchant: Awaited<ReturnType<typeof adminMerchant>>;
  beforeAll(async () => {
    server = await startServerProcess({ WEBINAR_DATA_DIR: "memory:" });
    merchant = await adminMerchant(server);
  }, 60_000);
  afterAll(async () => {
    await server?.stop("SIGKILL");
  });

  it("every answer of every route family carries nosniff and no-store", async () => {
    const upsertBody = JSON.stringify({ externalUserId: "headers-1" });
    const signed = await signRequest({
      apiKey: merchant.apiKey,
      secret: merchant.secret,
      path: "/api/v1/open/viewers/upsert",
      body: upsertBody,
    });
    const admin = { authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "application/json" };
    const json = { "content-type": "application/json" };
    const cases: [string, string, RequestInit, number][] = [
      ["health", "/healthz", {}, 200],
      ["unknown path", "/no/such/path", { method: "POST" }, 404],
      [
        "Open API signed success",
        "/api/v1/open/viewers/upsert",
        { method: "POST", headers: { ...signed.headers }, body: upsertBody },
        200,
      ],
      [
        "Open API validator rejection",
        "/api/v1/open/viewers/upsert",
        { method: "POST", headers: json, body: upsertBody },
        400,
      ],
      ["Open API wrong method", "/api/v1/open/viewers/upsert", { method: "GET" }, 405],
      [
        "Open API replay",
        "/api/v1/open/viewers/upsert",
        { method: "POST", headers: { ...signed.headers }, body: upsertBody },
        409,
      ],
      [
        "CORS preflight",
        "/api/v1/open/viewers/upsert",
        {
          method: "OPTIONS",
          headers: { origin: "https://elsewhere.example", "access-control-request-method": "POST" },
        },
        403,
      ],
      [
        "admin success",
        "/admin/v1/merchants",
        { method: "POST", headers: admin, body: JSON.stringify({ name: "Headers" }) },
        201,
      ],
      ["admin without token", "/admin/v1/merchants", { method: "POST", headers: json, body: "{}" }, 401],
      ["admin unknown path", "/admin/v1/nothing", { method: "POST", headers: admin, body: "{}" }, 404],
      ["admin body invalid", "/admin/v1/merchants", { method: "POST", headers: admin, body: "[" }, 400],
      ["watch page", `/w/${merchant.ticketCode}`, {}, 200],
      [
        "exchange, bad ticket",
        "/w/api/session",
        { method: "POST", headers: json, body: exchangeBody(merchant.ticketCode) },
        401,
      ],
      ["exchange, not JSON", "/w/api/session", { method: "POST", headers: json, body: "nope" }, 400],
      ["exchange, wrong method", "/w/api/session", { method: "GET" }, 405],
      [
        "playback without session",
        "/w/api/playback/heartbeat",
        {
          method: "POST",
          headers: json,
          body: JSON.stringify({ playbackId: "pb_0000000000000000000000", playing: true }),
        },
        401,
      ],
    ];
    for (const [name, path, init, status] of cases) {
      const response = await fetch(`${server.url}${path}`, init);
      await response.arrayBuffer();
      expect({
        name,
        status: response.status,
        nosniff: response.headers.get("x-content-type-options"),
        cache: response.headers.get("cache-control"),
      }).toEqual({
        name,
        status,
        nosniff: "nosniff",
        cache: "no-store",
      });
    }
  });

  it("a client that hangs up mid-body is logged at info, never as an error or a 500", async () => {
    const signedHeaders = `X-API-Key: wk_live_x\r\nX-Timestamp: 1\r\nX-Nonce: 0123456789abcdef0123\r\nX-Signature: ${"0".repeat(64)}\r\n`;
    for (const [path, extra] of [
      ["/api/v1/open/viewers/upsert", signedHeaders],
      ["/w/api/session", ""],
      ["/admin/v1/merchants", `Authorization: Bearer ${ADMIN_TOKEN}\r\n`],
    ] as const) {
      const connection = await open(server.url);
      connection.socket.write(
        `POST ${path} HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\n${extra}Content-Length: 1000\r\n\r\n{"externalUserId":`,
      );
      await new Promise((resolve) => setTimeout(resolve, 200));
      connection.socket.destroy();
    }
    // Log lines reach stdout within a second of being logged (the server writes them in blocks).
    const gone = () =>
      server
        .logs()
        .filter((record) => record.msg === "the client closed the connection before its request was complete");
    await expect.poll(() => gone().length, { timeout: 10_000 }).toBeGreaterThanOrEqual(3);
    const logs = server.logs();
    expect(gone().map((record) => [record.level, record.path])).toEqual([
      ["info", "/api/v1/open/viewers/upsert"],
      ["info", "/w/api/session"],
      ["info", "/admin/v1/merchants"],
    ]);
    expect(logs.filter((record) => record.level === "error" || record.status === 500)).toEqual([]);
  });

  it("SIGTERM: in-flight requests finish with Connection: close, idle keep-alive connections close, new ones are refused, exit 0", async () => {
    const idle = await open(server.url);
    idle.socket.write("GET /healthz HTTP/1.1\r\nHost: test\r\n\r\n");
    await waitFor(idle, '"status":"ok"');
    const body = exchangeBody(merchant.ticketCode);
    const inFlight = await open(server.url);
    inFlight.socket.write(
      `POST /w/api/session HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 10)}`,
    );
    await new Promise((resolve) => setTimeout(resolve, 200));

    server.child.kill("SIGTERM");
    await idle.closed;
    await expect(fetch(`${server.url}/healthz`)).rejects.toThrow();
    expect(inFlight.received()).toBe("");

    inFlight.socket.write(body.slice(10));
    await inFlight.closed;
    expect(inFlight.received()).toMatch(/^HTTP\/1\.1 401/);
    expect(inFlight.received()).toMatch(/\r\nConnection: close\r\n/i);
    expect(inFlight.received()).toContain("LOGIN_TICKET_INVALID");
    expect(await server.exited).toBe(0);
  }, 30_000);
});
