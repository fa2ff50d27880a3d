/**
 * The logger hook sees one entry per attempt with method, path, status, duration, requestId and attempt, and nothing
 * secret: the test serializes everything it was given and looks for the secret, every signature and nonce the server
 * received, and the login ticket and URL (issueLoginTicket: temporary credentials that must not be logged).
 */
import { describe, expect, it } from "vitest";
import type { RequestLogEntry } from "@org/webinar-client";
import { createDataset, TICKET_CODE } from "./support/dataset";
import { clientFor, startServer } from "./support/fixtures";
import { apiError, TEST_API_KEY, TEST_SECRET } from "./support/verifying-server";

describe("logger", () => {
  it("issueLoginTicket, Signing requests: entries never carry the secret, a signature, a nonce, a login ticket or a login URL", async () => {
    const server = await startServer({ dataset: createDataset(30), clockOffsetMs: 10 * 60_000 });
    const entries: RequestLogEntry[] = [];
    const { client } = clientFor(server, { logger: (entry) => entries.push(entry), timeoutMs: 200 });
    server.script("issueLoginTicket", apiError(503, "VIEWER_DOMAIN_UNAVAILABLE"));
    server.script("getWatchOverview", { status: 200, json: {}, delayMs: 1000 });

    // A 401 corrected for the skewed clock, a retried 503, a timed-out attempt, a gateway page, pages of data.
    const upserted = await client.upsertViewer({
      externalUserId: "crm-logger",
      phone: "13912345678",
      displayName: "张三",
    });
    const { viewer } = upserted;
    const ticket = await client.issueLoginTicket({ uid: viewer.uid, ticketCode: TICKET_CODE });
    await client.getWatchOverview({ ticketCode: TICKET_CODE, playbackMode: "ALL" });
    server.scriptGateway("upsertViewer", { status: 413, text: "<html>too large</html>" });
    await client.upsertViewer({ externalUserId: "crm-logger" }).catch(() => undefined);
    for await (const _ of client.iterateViewerWatch({
      ticketCode: TICKET_CODE,
      playbackMode: "REPLAY",
      sort: "WATCH_SECONDS_DESC",
      pageSize: 10,
    }))
      void _;

    const logged = JSON.stringify(entries);
    const forbidden = [
      TEST_SECRET,
      ticket.loginTicket,
      ticket.loginUrl,
      "login_ticket",
      ...server.received.flatMap((request) => [request.header("x-signature")!, request.header("x-nonce")!]),
    ];
    for (const value of forbidden) expect(logged).not.toContain(value);
    expect(logged).not.toContain(TEST_API_KEY);

    expect(entries).toHaveLength(server.received.length);
    for (const entry of entries) {
      expect(Object.keys(entry).sort()).toEqual(
        expect.arrayContaining(["attempt", "durationMs", "method", "path", "requestId", "status"]),
      );
      expect(entry.method).toBe("POST");
      expect(entry.durationMs).toBeGreaterThanOrEqual(0);
    }
    expect(
      entries.map((entry) => [entry.operationId, entry.attempt, entry.status, entry.error?.code ?? entry.error?.name]),
    ).toEqual([
      ["upsertViewer", 1, 401, "OPEN_API_UNAUTHORIZED"],
      ["upsertViewer", 2, 200, undefined],
      ["issueLoginTicket", 1, 503, "VIEWER_DOMAIN_UNAVAILABLE"],
      ["issueLoginTicket", 2, 200, undefined],
      ["getWatchOverview", 1, undefined, "WebinarTimeoutError"],
      ["getWatchOverview", 2, 200, undefined],
      ["upsertViewer", 1, 413, "WebinarResponseError"],
      ["queryViewerWatch", 1, 200, undefined],
      ["queryViewerWatch", 1, 200, undefined],
      ["queryViewerWatch", 1, 200, undefined],
    ]);
    expect(entries[0]!.retryInMs).toBe(0);
    expect(entries[2]!.retryInMs).toBeGreaterThanOrEqual(0);
    expect(entries[3]!.path).toBe("/api/v1/open/viewers/login-tickets");
    const requestIds = entries.map((entry) => entry.requestId);
    expect(requestIds[1]).toBe(upserted.requestId);
    expect(requestIds[3]).toBe(ticket.requestId);
    expect(requestIds[4]).toBeUndefined();
  });

  it("logs the methods' attempts, not client.raw's own calls (single attempts outside the methods)", async () => {
    const server = await startServer({ dataset: createDataset(1) });
    const entries: RequestLogEntry[] = [];
    const { client } = clientFor(server, { logger: (entry) => entries.push(entry) });
    await client.raw.POST("/api/v1/open/watch-data/overview", {
      body: { ticketCode: TICKET_CODE, playbackMode: "ALL" },
    });
    await client.getWatchOverview({ ticketCode: TICKET_CODE, playbackMode: "ALL" });
    expect(server.received.map((request) => request.verdict)).toEqual(["ok", "ok"]);
    expect(entries.map((entry) => [entry.operationId, entry.status])).toEqual([["getWatchOverview", 200]]);
  });

  it("a logger that throws does not fail the call", async () => {
    const server = await startServer({ dataset: createDataset(1) });
    const { client } = clientFor(server, {
      logger: () => {
        throw new Error("broken logger");
      },
    });
    await expect(client.getWatchOverview({ ticketCode: TICKET_CODE, playbackMode: "ALL" })).resolves.toMatchObject({
      ticketCode: TICKET_CODE,
    });
  });
});
