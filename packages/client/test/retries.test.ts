/**
 * Retries against the verifying server: which answers are retried (the spec's `x-retry` per code, never a 4xx),
 * that every attempt is signed anew, how long the client waits (Retry-After, full jitter, the deadline), and
 * per-attempt timeouts and connection failures.
 */
import { describe, expect, it } from "vitest";
import {
  isWebinarApiError,
  WebinarApiError,
  WebinarConnectionError,
  WebinarResponseError,
  WebinarTimeoutError,
  type OperationId,
} from "@org/webinar-client";
import { errorCatalog, operations, type ErrorCode } from "@org/webinar-types";
import { createDataset, TICKET_CODE } from "./support/dataset";
import { clientFor, rejectionOf, startServer } from "./support/fixtures";
import { apiError, startVerifyingServer } from "./support/verifying-server";

const overviewBody = { ticketCode: TICKET_CODE, playbackMode: "ALL" } as const;
const gatewayPage = (status: number, title: string) => ({
  status,
  text: `<html><head><title>${status} ${title}</title></head><body><h1>${title}</h1></body></html>`,
});

/** Calls one operation with a body the dataset accepts. */
function callOperation(client: ReturnType<typeof clientFor>["client"], operationId: OperationId) {
  switch (operationId) {
    case "upsertViewer":
      return client.upsertViewer({ externalUserId: "crm-retry" });
    case "issueLoginTicket":
      return client.issueLoginTicket({ uid: 10000, ticketCode: TICKET_CODE });
    case "getWatchOverview":
      return client.getWatchOverview(overviewBody);
    case "queryViewerWatch":
      return client.queryViewerWatch({ ...overviewBody, sort: "WATCH_SECONDS_DESC", pageSize: 10 });
  }
}

const operationOf = (code: ErrorCode) =>
  (Object.keys(operations) as OperationId[]).find((operationId) =>
    Object.values(operations[operationId].errors).some((codes) => (codes as readonly string[]).includes(code)),
  )!;

describe("retries by error code (x-retry of ErrorCode)", () => {
  const codes = (Object.keys(errorCatalog) as ErrorCode[]).map((code) => ({
    code,
    ...errorCatalog[code],
    operationId: operationOf(code),
  }));

  it.each(codes)(
    "Errors and retries: $status $code ($retry) on $operationId: retried only when backoff",
    async ({ code, status, retry, operationId }) => {
      const server = await startServer({ dataset: createDataset(3) });
      server.script(operationId, apiError(status, code), apiError(status, code), apiError(status, code));
      const { client, waits } = clientFor(server, { retry: { maxAttempts: 3 } });
      const error = await rejectionOf(callOperation(client, operationId));
      expect(error).toBeInstanceOf(WebinarApiError);
      expect(error).toMatchObject({ status, code, operationId, attempts: retry === "backoff" ? 3 : 1 });
      expect(server.received).toHaveLength(retry === "backoff" ? 3 : 1);
      expect(waits).toHaveLength(retry === "backoff" ? 2 : 0);
    },
  );

  it("Signing requests: a retried request is re-signed: fresh timestamp, nonce and signature, no nonce ever reused", async () => {
    const server = await startServer({ dataset: createDataset(3) });
    server.script("getWatchOverview", apiError(503, "WATCH_DATA_UNAVAILABLE"), apiError(500, "INTERNAL_ERROR"));
    let now = Date.now();
    const { client } = clientFor(server, { clock: () => (now += 1000) });
    const overview = await client.getWatchOverview(overviewBody);
    expect(overview.ticketCode).toBe(TICKET_CODE);
    expect(server.received.map((request) => request.verdict)).toEqual(["ok", "ok", "ok"]);
    const nonces = server.received.map((request) => request.header("x-nonce"));
    expect(new Set(nonces).size).toBe(3);
    expect(nonces.every((nonce) => /^[0-9a-f]{32}$/.test(nonce ?? ""))).toBe(true);
    expect(new Set(server.received.map((request) => request.header("x-timestamp"))).size).toBe(3);
    expect(new Set(server.received.map((request) => request.header("x-signature"))).size).toBe(3);
    expect(new Set(server.received.map((request) => request.body.toString("utf8")))).toEqual(
      new Set([JSON.stringify(overviewBody)]),
    );
  });

  it("Signing requests: a nonce source that repeats itself meets the real replay check: 409 OPEN_API_REPLAYED, not retried", async () => {
    const server = await startServer({ dataset: createDataset(3) });
    const { client } = clientFor(server, { nonceSource: () => "fixed-nonce-0123456789" });
    await client.getWatchOverview(overviewBody);
    const error = await rejectionOf(client.getWatchOverview(overviewBody));
    expect(error).toMatchObject({ status: 409, code: "OPEN_API_REPLAYED", attempts: 1 });
    expect(server.received.map((request) => request.verdict)).toEqual(["ok", "OPEN_API_REPLAYED"]);
  });

  it("upsertViewer: a real 409 VIEWER_IDENTITY_CONFLICT is not retried and changes nothing", async () => {
    const server = await startServer({ dataset: createDataset(3) });
    const { client } = clientFor(server);
    const error = await rejectionOf(client.upsertViewer({ externalUserId: "crm-new", phone: "13800000000" }));
    expect(isWebinarApiError(error, "upsertViewer") && error.code).toBe("VIEWER_IDENTITY_CONFLICT");
    expect(server.received).toHaveLength(1);
  });
});

describe("retries of answers without the API's envelope", () => {
  it.each([
    {
      rule: "a gateway's 502 page is retried, then reported as WebinarResponseError",
      answer: gatewayPage(502, "Bad Gateway"),
      requests: 3,
    },
    { rule: "a gateway's 504 page is retried", answer: gatewayPage(504, "Gateway Timeout"), requests: 3 },
    {
      rule: "Errors and retries: a gateway's 413 page is final (every 4xx is)",
      answer: gatewayPage(413, "Request Entity Too Large"),
      requests: 1,
    },
  ])("$rule", async ({ answer, requests }) => {
    const server = await startServer();
    server.scriptGateway("*", answer, answer, answer);
    const { client } = clientFor(server);
    const error = await rejectionOf(client.getWatchOverview(overviewBody));
    expect(error).toBeInstanceOf(WebinarResponseError);
    expect(error).toMatchObject({ status: answer.status, attempts: requests });
    expect((error as WebinarResponseError).bodySnippet).toContain(`<title>${answer.status}`);
    expect(server.received).toHaveLength(requests);
  });
});

describe("how long the client waits", () => {
  it("Retry-After in seconds is honoured", async () => {
    const server = await startServer({ dataset: createDataset(1) });
    server.script(
      "getWatchOverview",
      apiError(503, "AUTH_DEPENDENCY_UNAVAILABLE", undefined, { headers: { "Retry-After": "2" } }),
    );
    const { client, waits } = clientFor(server);
    await client.getWatchOverview(overviewBody);
    expect(waits).toEqual([2000]);
  });

  it("Retry-After as an HTTP date is read against the server's Date", async () => {
    const server = await startServer({ dataset: createDataset(1), clockOffsetMs: 3_600_000 });
    const retryAt = new Date(server.now() + 3000).toUTCString();
    server.script(
      "getWatchOverview",
      apiError(503, "WATCH_DATA_UNAVAILABLE", undefined, {
        headers: { "Retry-After": retryAt, Date: new Date(server.now()).toUTCString() },
      }),
    );
    const { client, waits } = clientFor(server);
    await client.getWatchOverview(overviewBody);
    expect(waits).toHaveLength(1);
    expect(waits[0]).toBeGreaterThanOrEqual(2000);
    expect(waits[0]).toBeLessThanOrEqual(3000);
  });

  it("exponential backoff with full jitter: random() * min(maxDelayMs, baseDelayMs * 2^n)", async () => {
    const server = await startServer({ dataset: createDataset(1) });
    server.script(
      "getWatchOverview",
      apiError(500, "INTERNAL_ERROR"),
      apiError(500, "INTERNAL_ERROR"),
      apiError(500, "INTERNAL_ERROR"),
    );
    const { client, waits } = clientFor(server, {
      random: () => 0.5,
      retry: { maxAttempts: 4, baseDelayMs: 100, maxDelayMs: 300 },
    });
    await client.getWatchOverview(overviewBody);
    expect(waits).toEqual([50, 100, 150]);
  });

  it("the overall deadline stops retrying before a wait would pass it; the last answer is thrown", async () => {
    const server = await startServer({ dataset: createDataset(1) });
    server.script("getWatchOverview", ...Array.from({ length: 5 }, () => apiError(503, "WATCH_DATA_UNAVAILABLE")));
    let elapsed = 0;
    const { client } = clientFor(server, {
      clock: () => Date.now() + elapsed,
      sleep: async (ms) => {
        elapsed += ms;
      },
      random: () => 0.99,
      retry: { maxAttempts: 10, baseDelayMs: 400, maxDelayMs: 10_000, deadlineMs: 1000 },
    });
    const error = await rejectionOf(client.getWatchOverview(overviewBody));
    // Waits of 396 then 792 ms: the second would end after the 1000 ms deadline, so it is not taken.
    expect(error).toMatchObject({ code: "WATCH_DATA_UNAVAILABLE", attempts: 2 });
    expect(server.received).toHaveLength(2);
  });

  it("a Retry-After beyond the deadline ends the call at once", async () => {
    const server = await startServer({ dataset: createDataset(1) });
    server.script(
      "getWatchOverview",
      apiError(503, "WATCH_DATA_UNAVAILABLE", undefined, { headers: { "Retry-After": "120" } }),
    );
    const { client, waits } = clientFor(server);
    await expect(client.getWatchOverview(overviewBody)).rejects.toMatchObject({ code: "WATCH_DATA_UNAVAILABLE" });
    expect(waits).toEqual([]);
  });

  it.each([
    {
      rule: "retry: false on the client makes one attempt",
      clientRetry: false as const,
      callRetry: undefined,
      requests: 1,
    },
    {
      rule: "a per-call retry overrides the client's",
      clientRetry: false as const,
      callRetry: { maxAttempts: 2 },
      requests: 2,
    },
    {
      rule: "a per-call retry: false overrides the client's",
      clientRetry: undefined,
      callRetry: false as const,
      requests: 1,
    },
  ])("$rule", async ({ clientRetry, callRetry, requests }) => {
    const server = await startServer({ dataset: createDataset(1) });
    server.script(
      "getWatchOverview",
      apiError(503, "WATCH_DATA_UNAVAILABLE"),
      apiError(503, "WATCH_DATA_UNAVAILABLE"),
      apiError(503, "WATCH_DATA_UNAVAILABLE"),
    );
    const { client } = clientFor(server, clientRetry === undefined ? {} : { retry: clientRetry });
    await expect(
      client.getWatchOverview(overviewBody, callRetry === undefined ? {} : { retry: callRetry }),
    ).rejects.toBeInstanceOf(WebinarApiError);
    expect(server.received).toHaveLength(requests);
  });
});

describe("timeouts, connection failures and aborts", () => {
  it("an attempt that exceeds timeoutMs is abandoned and retried with a new signature", async () => {
    const server = await startServer({ dataset: createDataset(1) });
    server.script("getWatchOverview", { status: 200, json: { requestId: "req_late", data: {} }, delayMs: 1500 });
    const { client } = clientFor(server, { timeoutMs: 150 });
    const overview = await client.getWatchOverview(overviewBody);
    expect(overview.requestId).not.toBe("req_late");
    expect(server.received).toHaveLength(2);
    expect(server.received[0]!.header("x-nonce")).not.toBe(server.received[1]!.header("x-nonce"));
  });

  it("without retries, a timeout is a WebinarTimeoutError of phase attempt", async () => {
    const server = await startServer({ dataset: createDataset(1) });
    server.script("getWatchOverview", { status: 200, json: {}, delayMs: 1500 });
    const { client } = clientFor(server, { timeoutMs: 100, retry: false });
    const error = await rejectionOf(client.getWatchOverview(overviewBody));
    expect(error).toBeInstanceOf(WebinarTimeoutError);
    expect(error).toMatchObject({ phase: "attempt", timeoutMs: 100, attempts: 1 });
  });

  it("a fetch that ignores the abort signal still times out", async () => {
    const server = await startServer();
    const { client } = clientFor(server, {
      timeoutMs: 50,
      retry: false,
      fetch: () => new Promise<Response>(() => undefined),
    });
    await expect(client.getWatchOverview(overviewBody)).rejects.toMatchObject({
      name: "WebinarTimeoutError",
      phase: "attempt",
    });
  });

  it("a dropped connection is retried", async () => {
    const server = await startServer({ dataset: createDataset(1) });
    server.script("getWatchOverview", { destroy: true });
    const { client, waits } = clientFor(server);
    const overview = await client.getWatchOverview(overviewBody);
    expect(overview.ticketCode).toBe(TICKET_CODE);
    expect(server.received).toHaveLength(2);
    expect(waits).toHaveLength(1);
  });

  it("an unreachable server gives a WebinarConnectionError after every attempt", async () => {
    const closed = await startVerifyingServer();
    await closed.close();
    const { client, waits } = clientFor(closed, { retry: { maxAttempts: 3 } });
    const error = await rejectionOf(client.getWatchOverview(overviewBody));
    expect(error).toBeInstanceOf(WebinarConnectionError);
    expect(error).toMatchObject({ reason: "network", attempts: 3 });
    expect((error as Error).message).toMatch(/ECONNREFUSED/);
    expect(waits).toHaveLength(2);
  });

  it("the caller's abort signal ends the call with its reason, without retrying", async () => {
    const server = await startServer({ dataset: createDataset(1) });
    server.script("getWatchOverview", { status: 200, json: {}, delayMs: 2000 });
    const { client } = clientFor(server);
    const controller = new AbortController();
    const reason = new Error("user went away");
    setTimeout(() => controller.abort(reason), 50);
    await expect(client.getWatchOverview(overviewBody, { signal: controller.signal })).rejects.toBe(reason);
    expect(server.received).toHaveLength(1);
  });

  it("a timed-out attempt aborts the signal its fetch was given, so the request does not keep running", async () => {
    const server = await startServer();
    const signals: AbortSignal[] = [];
    const fetch = (request: Request) =>
      new Promise<Response>((_, reject) => {
        const { signal } = request;
        signals.push(signal);
        signal.addEventListener("abort", () => reject(signal.reason), { once: true });
      });
    const { client } = clientFor(server, { timeoutMs: 30, retry: { maxAttempts: 2 }, fetch });
    await expect(client.getWatchOverview(overviewBody)).rejects.toMatchObject({
      name: "WebinarTimeoutError",
      phase: "attempt",
      attempts: 2,
    });
    expect(signals).toHaveLength(2);
    expect(signals[0]).not.toBe(signals[1]);
    for (const signal of signals) {
      expect(signal.aborted).toBe(true);
      expect(signal.reason).toBeInstanceOf(WebinarTimeoutError);
    }
  });

  it("the caller's abort aborts the signal the fetch was given", async () => {
    const server = await startServer();
    let given: AbortSignal | undefined;
    const fetch = (request: Request) =>
      new Promise<Response>((_, reject) => {
        given = request.signal;
        given.addEventListener("abort", () => reject(given!.reason), { once: true });
      });
    const { client } = clientFor(server, { fetch });
    const controller = new AbortController();
    const reason = new Error("user went away");
    setTimeout(() => controller.abort(reason), 20);
    await expect(client.getWatchOverview(overviewBody, { signal: controller.signal })).rejects.toBe(reason);
    expect(given?.aborted).toBe(true);
    expect(given?.reason).toBe(reason);
  });

  it("client.raw honours a signal passed with the request", async () => {
    const server = await startServer({ dataset: createDataset(1) });
    server.script("getWatchOverview", { status: 200, json: {}, delayMs: 2000 });
    const { client } = clientFor(server);
    const controller = new AbortController();
    const reason = new Error("raw caller went away");
    setTimeout(() => controller.abort(reason), 50);
    await expect(
      client.raw.POST("/api/v1/open/watch-data/overview", { body: overviewBody, signal: controller.signal }),
    ).rejects.toBe(reason);
    expect(server.received).toHaveLength(1);
  });

  it("an already aborted signal sends nothing", async () => {
    const server = await startServer({ dataset: createDataset(1) });
    const { client } = clientFor(server);
    await expect(client.getWatchOverview(overviewBody, { signal: AbortSignal.abort("no") })).rejects.toBe("no");
    expect(server.received).toHaveLength(0);
  });
});
