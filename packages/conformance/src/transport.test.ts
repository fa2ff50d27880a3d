/**
 * The kit's connections to a real HTTP server: an idle kept-alive connection is closed by the kit before the server
 * would close it (so no request is sent on a connection the server is closing), while a slow answer on a kept-alive
 * connection is still awaited up to the request's own timeout.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { createTransport, IDLE_CONNECTION_MS, type Transport } from "./transport";

interface Connection {
  openedAtMs: number;
  /** When the kit ended the connection, if the server saw it end before closing it itself. */
  endedByKitAtMs?: number;
}

interface CountingServer {
  origin: string;
  connections: Connection[];
  /** Milliseconds to wait before answering each request. */
  delayMs: number;
  close(): Promise<void>;
}

/** A server that answers `ok` after `delayMs` and records each connection and when the kit ended it. */
async function countingServer(keepAliveTimeoutMs: number): Promise<CountingServer> {
  const server: Server = createServer((request, response) => {
    request.resume();
    request.on("end", () => setTimeout(() => response.end("ok"), counting.delayMs));
  });
  const counting: CountingServer = {
    origin: "",
    connections: [],
    delayMs: 0,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  server.keepAliveTimeout = keepAliveTimeoutMs;
  server.on("connection", (socket: Socket) => {
    const connection: Connection = { openedAtMs: Date.now() };
    counting.connections.push(connection);
    socket.on("end", () => {
      connection.endedByKitAtMs = Date.now();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  counting.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return counting;
}

const get = (origin: string) => ({ origin, target: "/", method: "GET", headers: {}, body: new Uint8Array() });
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("the kit's kept-alive connections", () => {
  let server: CountingServer | undefined;
  let transport: Transport | undefined;
  afterEach(async () => {
    transport?.close();
    await server?.close();
  });

  it(`closes a connection idle for ${IDLE_CONNECTION_MS} ms, long before the server's 60 s`, async () => {
    server = await countingServer(60_000);
    transport = createTransport(10_000);
    const first = await transport.send(get(server.origin));
    expect(first.text).toBe("ok");
    await sleep(IDLE_CONNECTION_MS + 500);
    const idle = server.connections[0]!;
    expect(idle.endedByKitAtMs).toBeDefined();
    expect(idle.endedByKitAtMs! - first.receivedAtMs).toBeGreaterThanOrEqual(IDLE_CONNECTION_MS - 50);
    await transport.send(get(server.origin));
    expect(server.connections).toHaveLength(2);
  });

  it("closes it a second before the idle timeout the server announces when that comes first", async () => {
    server = await countingServer(2000);
    transport = createTransport(10_000);
    const first = await transport.send(get(server.origin));
    expect(first.headers["keep-alive"]).toBe("timeout=2");
    await sleep(1600);
    const idle = server.connections[0]!;
    expect(idle.endedByKitAtMs).toBeDefined();
    expect(idle.endedByKitAtMs! - first.receivedAtMs).toBeLessThan(1600);
  });

  it("reuses a connection used again within the idle time", async () => {
    server = await countingServer(60_000);
    transport = createTransport(10_000);
    await transport.send(get(server.origin));
    await sleep(IDLE_CONNECTION_MS / 4);
    await transport.send(get(server.origin));
    expect(server.connections).toHaveLength(1);
  });

  it("awaits an answer slower than the idle time, on a new and on a reused connection, up to the request's timeout", async () => {
    server = await countingServer(60_000);
    transport = createTransport(10_000);
    server.delayMs = IDLE_CONNECTION_MS + 500;
    expect((await transport.send(get(server.origin))).text).toBe("ok");
    expect((await transport.send(get(server.origin))).text).toBe("ok");
    expect(server.connections).toHaveLength(1);
  });

  it("gives up on a reused connection after the request's timeout", async () => {
    server = await countingServer(60_000);
    transport = createTransport(800);
    await transport.send(get(server.origin));
    server.delayMs = 1500;
    await expect(transport.send(get(server.origin))).rejects.toThrow("no answer within 800 ms to GET /");
    expect(server.connections).toHaveLength(1);
  });
});
