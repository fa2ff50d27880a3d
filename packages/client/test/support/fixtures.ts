/**
 * Per-test servers and clients: every server started through {@link startServer} is closed after the test, and
 * {@link clientFor} points a client at a server with the suite's credentials and a sleep that records its waits
 * instead of waiting (so retry tests run in milliseconds and can assert the delays).
 */
import { afterEach } from "vitest";
import { createWebinarClient, type WebinarClientOptions } from "@org/webinar-client";
import {
  startVerifyingServer,
  TEST_API_KEY,
  TEST_SECRET,
  type VerifyingServer,
  type VerifyingServerOptions,
} from "./verifying-server";

const open: VerifyingServer[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((server) => server.close()));
});

export async function startServer(options: VerifyingServerOptions = {}): Promise<VerifyingServer> {
  const server = await startVerifyingServer(options);
  open.push(server);
  return server;
}

/** A sleep that returns at once and records how long it was asked to wait. */
export function recordingSleep() {
  const waits: number[] = [];
  return {
    waits,
    sleep: async (ms: number, signal?: AbortSignal) => {
      signal?.throwIfAborted();
      waits.push(ms);
    },
  };
}

export function clientFor(server: VerifyingServer, options: Partial<WebinarClientOptions> = {}) {
  const recorded = recordingSleep();
  const client = createWebinarClient({
    baseUrl: server.baseUrl,
    apiKey: TEST_API_KEY,
    secret: TEST_SECRET,
    sleep: recorded.sleep,
    ...options,
  });
  return { client, waits: recorded.waits };
}

/** Resolves with the error a promise rejects with; fails when it resolves. */
export async function rejectionOf(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected the promise to reject, but it resolved");
}
