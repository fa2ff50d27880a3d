/**
 * Signing requests, Limits: a timestamp more than ±300 s from the server's clock gives 401 OPEN_API_UNAUTHORIZED. The
 * client learns the offset from every answer's Date header, retries such a 401 once with the corrected clock, and
 * signs every later request with it.
 */
import { limits } from "@org/webinar-types";
import { describe, expect, it } from "vitest";
import { WebinarApiError } from "@org/webinar-client";
import { createDataset, TICKET_CODE } from "./support/dataset";
import { clientFor, rejectionOf, startServer } from "./support/fixtures";

const overviewBody = { ticketCode: TICKET_CODE, playbackMode: "ALL" } as const;
const TEN_MINUTES = 10 * 60_000;

describe("clock-skew correction", () => {
  it.each([
    { rule: "server clock 10 minutes ahead", offsetMs: TEN_MINUTES },
    { rule: "server clock 10 minutes behind", offsetMs: -TEN_MINUTES },
  ])(
    "Signing requests: $rule: the first call is retried once, re-signed with the server's time; later calls are right at once",
    async ({ offsetMs }) => {
      const server = await startServer({ dataset: createDataset(2), clockOffsetMs: offsetMs });
      const { client, waits } = clientFor(server);
      expect(Math.abs(offsetMs / 1000)).toBeGreaterThan(limits.clockSkewSeconds);

      const overview = await client.getWatchOverview(overviewBody);
      expect(overview.ticketCode).toBe(TICKET_CODE);
      expect(server.received.map((request) => request.verdict)).toEqual(["OPEN_API_UNAUTHORIZED", "ok"]);
      expect(waits).toEqual([]);
      const [first, second] = server.received.map((request) => Number(request.header("x-timestamp")));
      expect(Math.abs(second! - first! - offsetMs / 1000)).toBeLessThanOrEqual(2);
      expect(server.received[0]!.header("x-nonce")).not.toBe(server.received[1]!.header("x-nonce"));

      await client.upsertViewer({ externalUserId: "crm-skew" });
      expect(server.received.map((request) => request.verdict)).toEqual(["OPEN_API_UNAUTHORIZED", "ok", "ok"]);
    },
  );

  it("the 401 is retried once only: a wrong secret on a skewed server fails after two attempts", async () => {
    const server = await startServer({ clockOffsetMs: TEN_MINUTES });
    const { client } = clientFor(server, { secret: "not the secret" });
    const error = await rejectionOf(client.getWatchOverview(overviewBody));
    expect(error).toBeInstanceOf(WebinarApiError);
    expect(error).toMatchObject({ status: 401, code: "OPEN_API_UNAUTHORIZED", attempts: 2 });
    expect(server.received).toHaveLength(2);
  });

  it("a 401 with a clock in step is not retried (a wrong secret is not a skew)", async () => {
    const server = await startServer();
    const { client } = clientFor(server, { secret: "not the secret" });
    await expect(client.getWatchOverview(overviewBody)).rejects.toMatchObject({
      code: "OPEN_API_UNAUTHORIZED",
      attempts: 1,
    });
    expect(server.received).toHaveLength(1);
  });

  it("the correction is independent of retry: false (it is part of signing, not a retry policy)", async () => {
    const server = await startServer({ dataset: createDataset(1), clockOffsetMs: -TEN_MINUTES });
    const { client } = clientFor(server, { retry: false });
    await client.getWatchOverview(overviewBody);
    expect(server.received.map((request) => request.verdict)).toEqual(["OPEN_API_UNAUTHORIZED", "ok"]);
  });

  it("clockSkew: false turns the correction off", async () => {
    const server = await startServer({ clockOffsetMs: TEN_MINUTES });
    const { client } = clientFor(server, { clockSkew: false });
    await expect(client.getWatchOverview(overviewBody)).rejects.toMatchObject({
      code: "OPEN_API_UNAUTHORIZED",
      attempts: 1,
    });
    await expect(client.getWatchOverview(overviewBody)).rejects.toMatchObject({
      code: "OPEN_API_UNAUTHORIZED",
      attempts: 1,
    });
    expect(server.received).toHaveLength(2);
  });

  it("an offset within the threshold is not applied: timestamps stay the local clock's", async () => {
    const server = await startServer({ dataset: createDataset(1), clockOffsetMs: 20_000 });
    const local = Date.now();
    const { client } = clientFor(server, { clock: () => local });
    await client.getWatchOverview(overviewBody);
    await client.getWatchOverview(overviewBody);
    expect(server.received.map((request) => request.header("x-timestamp"))).toEqual([
      String(Math.floor(local / 1000)),
      String(Math.floor(local / 1000)),
    ]);
  });

  it("a custom threshold applies", async () => {
    const server = await startServer({ dataset: createDataset(1), clockOffsetMs: 20_000 });
    const local = Date.now();
    const { client } = clientFor(server, { clock: () => local, clockSkew: { thresholdSeconds: 5 } });
    await client.getWatchOverview(overviewBody);
    await client.getWatchOverview(overviewBody);
    const second = Number(server.received[1]!.header("x-timestamp"));
    expect(second - Math.floor(local / 1000)).toBeGreaterThanOrEqual(19);
  });
});
