/**
 * queryViewerWatch: cursor pagination (cursors only ever the server's nextCursor), batching of any number of ids within
 * limits.maxCombinedIds, the merged order of each sort, and waiting out WATCH_DATA_NOT_FINAL.
 */
import { limits, type Sort, type ViewerWatchRecord } from "@org/webinar-types";
import { describe, expect, it } from "vitest";
import { WebinarApiError, WebinarTimeoutError } from "@org/webinar-client";
import { createDataset, TICKET_CODE } from "./support/dataset";
import { clientFor, rejectionOf, startServer } from "./support/fixtures";
import { apiError } from "./support/verifying-server";

const query = { ticketCode: TICKET_CODE, playbackMode: "REPLAY", sort: "WATCH_SECONDS_DESC" } as const;
const sentCursors = (server: { received: { json: Record<string, unknown> | undefined }[] }) =>
  server.received.map((request) => request.json?.cursor);

describe("iterateViewerWatch", () => {
  it("queryViewerWatch: yields every item exactly once, following only the server's nextCursor", async () => {
    const server = await startServer({ dataset: createDataset(237) });
    const { client } = clientFor(server);
    const pages = [];
    for await (const page of client.iterateViewerWatch({ ...query, pageSize: 25 }).pages()) pages.push(page);
    const items = pages.flatMap((page) => page.items);

    expect(pages).toHaveLength(10);
    expect(items).toHaveLength(237);
    expect(new Set(items.map((item) => item.uid)).size).toBe(237);
    expect(new Set(items.map((item) => item.uid))).toEqual(new Set(server.dataset.viewers.keys()));
    expect(pages.at(-1)!.nextCursor).toBeUndefined();
    // The first request has no cursor; each later one sends the previous page's nextCursor unchanged.
    expect(sentCursors(server)).toEqual([undefined, ...pages.slice(0, -1).map((page) => page.nextCursor)]);
    expect(pages.every((page) => page.requestId.startsWith("req_"))).toBe(true);
    expect(server.received.every((request) => request.json?.pageSize === 25)).toBe(true);
  });

  it("iterating yields the items in the server's order", async () => {
    const server = await startServer({ dataset: createDataset(60) });
    const { client } = clientFor(server);
    const uids: number[] = [];
    for await (const item of client.iterateViewerWatch({ ...query, sort: "FIRST_WATCHED_ASC", pageSize: 7 }))
      uids.push(item.uid);
    const firstPageOfAll = await client.queryViewerWatch({ ...query, sort: "FIRST_WATCHED_ASC", pageSize: 100 });
    expect(uids).toEqual(firstPageOfAll.items.map((item) => item.uid));
  });

  it.each([
    { rule: "maxPages stops after that many pages", limits: { maxPages: 3 }, items: 75, requests: 3 },
    {
      rule: "maxItems stops after that many items, cutting the last page",
      limits: { maxItems: 60 },
      items: 60,
      requests: 3,
    },
    { rule: "maxItems 0 sends nothing", limits: { maxItems: 0 }, items: 0, requests: 0 },
  ])("$rule", async ({ limits: pageLimits, items, requests }) => {
    const server = await startServer({ dataset: createDataset(237) });
    const { client } = clientFor(server);
    const seen: ViewerWatchRecord[] = [];
    for await (const item of client.iterateViewerWatch({ ...query, pageSize: 25 }, pageLimits)) seen.push(item);
    expect(seen).toHaveLength(items);
    expect(server.received).toHaveLength(requests);
  });

  it("pageSize defaults to the spec's maximum", async () => {
    const server = await startServer({ dataset: createDataset(5) });
    const { client } = clientFor(server);
    for await (const _ of client.iterateViewerWatch(query)) void _;
    expect(server.received[0]!.json?.pageSize).toBe(limits.pageSizeMax);
  });

  it("each iteration starts again at page one", async () => {
    const server = await startServer({ dataset: createDataset(30) });
    const { client } = clientFor(server);
    const iterable = client.iterateViewerWatch({ ...query, pageSize: 20 });
    let count = 0;
    for await (const _ of iterable) count += 1;
    for await (const _ of iterable) count += 1;
    expect(count).toBe(60);
    expect(sentCursors(server)[2]).toBeUndefined();
  });

  it("a server that repeats the cursor it was sent is reported, not followed forever", async () => {
    const server = await startServer();
    const page = (nextCursor: string) => ({
      status: 200,
      json: { requestId: "req_loop", data: { items: [], nextCursor } },
    });
    server.script("queryViewerWatch", page("c1"), page("c1"));
    const { client } = clientFor(server);
    const error = await rejectionOf(
      (async () => {
        for await (const _ of client.iterateViewerWatch(query)) void _;
      })(),
    );
    expect(error).toMatchObject({ name: "WebinarResponseError", requestId: "req_loop" });
    expect(server.received).toHaveLength(2);
  });
});

/** The order of queryViewerWatch's sorts, written out independently of the client's implementation. */
function expectedOrder(records: ViewerWatchRecord[], sort: Sort): number[] {
  const key = (record: ViewerWatchRecord): number =>
    sort === "WATCH_SECONDS_DESC"
      ? -record.totalWatchSeconds
      : sort === "LAST_WATCHED_DESC"
        ? -new Date(record.lastWatchedAt).getTime()
        : new Date(record.firstWatchedAt).getTime();
  return [...records]
    .sort((a, b) => (key(a) === key(b) ? a.uid - b.uid : key(a) < key(b) ? -1 : 1))
    .map((record) => record.uid);
}

describe("queryViewerWatchByIds", () => {
  // 250 viewers (uids 10000-10249, external ids crm-0..crm-249). 700 uids in steps of 3 and 300 external ids in
  // steps of 5 (1,000 distinct ids, plus duplicates): 84 uid matches and 50 external-id matches, 17 viewers matched
  // by both, in different batches.
  const uids = Array.from({ length: 700 }, (_, k) => 10000 + 3 * k);
  const externalUserIds = Array.from({ length: 300 }, (_, j) => `crm-${5 * j}`);
  const withDuplicates = {
    uids: [...uids, ...uids.slice(0, 40)],
    externalUserIds: [...externalUserIds, ...externalUserIds.slice(0, 10)],
  };

  it.each(["WATCH_SECONDS_DESC", "LAST_WATCHED_DESC", "FIRST_WATCHED_ASC"] as Sort[])(
    "queryViewerWatch: %s: 1,000 ids make exactly 4 requests of at most limits.maxCombinedIds, merged without duplicates in sort order",
    async (sort) => {
      const server = await startServer({ dataset: createDataset(250) });
      const { client } = clientFor(server);
      const records = await client.queryViewerWatchByIds({ ...query, sort, ...withDuplicates, pageSize: 100 });

      expect(server.received).toHaveLength(4);
      const sizes = server.received.map(
        (request) =>
          ((request.json?.uids as number[] | undefined)?.length ?? 0) +
          ((request.json?.externalUserIds as string[] | undefined)?.length ?? 0),
      );
      expect(sizes).toEqual([300, 300, 300, 100]);
      expect(sizes.every((size) => size <= limits.maxCombinedIds)).toBe(true);
      expect(server.received.flatMap((request) => (request.json?.uids as number[] | undefined) ?? []).sort()).toEqual(
        [...uids].sort(),
      );
      expect(
        server.received.flatMap((request) => (request.json?.externalUserIds as string[] | undefined) ?? []).sort(),
      ).toEqual([...externalUserIds].sort());

      const uidSet = new Set(uids);
      const externalSet = new Set(externalUserIds);
      const matching = server.dataset.records
        .get(TICKET_CODE)!
        .filter((record) => uidSet.has(record.uid) || externalSet.has(record.externalUserId!));
      expect(matching).toHaveLength(84 + 50 - 17);
      expect(records.map((record) => record.uid)).toEqual(expectedOrder(matching, sort));
    },
  );

  it("pages through a batch with more matches than pageSize", async () => {
    const server = await startServer({ dataset: createDataset(250) });
    const { client } = clientFor(server);
    const records = await client.queryViewerWatchByIds({
      ...query,
      uids: Array.from({ length: 250 }, (_, index) => 10000 + index),
      pageSize: 100,
    });
    expect(records).toHaveLength(250);
    expect(server.received).toHaveLength(3);
  });

  it("queryViewerWatch: no ids at all sends nothing and returns [] (an empty filter would match every viewer)", async () => {
    const server = await startServer({ dataset: createDataset(10) });
    const { client } = clientFor(server);
    expect(await client.queryViewerWatchByIds({ ...query, uids: [], externalUserIds: [] })).toEqual([]);
    expect(server.received).toHaveLength(0);
  });
});

describe("waiting for final data", () => {
  const liveQuery = {
    ticketCode: TICKET_CODE,
    playbackMode: "LIVE",
    sort: "WATCH_SECONDS_DESC",
    pageSize: 10,
  } as const;

  it("queryViewerWatch: WATCH_DATA_NOT_FINAL is not retried by the generic policy", async () => {
    const server = await startServer({ dataset: createDataset(3) });
    server.script("queryViewerWatch", apiError(409, "WATCH_DATA_NOT_FINAL"));
    const { client } = clientFor(server);
    await expect(client.queryViewerWatch(liveQuery)).rejects.toMatchObject({
      code: "WATCH_DATA_NOT_FINAL",
      status: 409,
    });
    expect(server.received).toHaveLength(1);
  });

  it("queryViewerWatch: waitForFinal polls with a new signed request until the data is final", async () => {
    const server = await startServer({ dataset: createDataset(3) });
    server.script(
      "queryViewerWatch",
      apiError(409, "WATCH_DATA_NOT_FINAL"),
      apiError(409, "WATCH_DATA_NOT_FINAL", undefined, { headers: { "Retry-After": "7" } }),
    );
    const { client, waits } = clientFor(server);
    const page = await client.queryViewerWatch(liveQuery, { waitForFinal: { intervalMs: 2000 } });
    expect(page.items).toHaveLength(3);
    expect(waits).toEqual([2000, 7000]);
    expect(new Set(server.received.map((request) => request.header("x-nonce"))).size).toBe(3);
  });

  it("waitForFinal gives up with the last WATCH_DATA_NOT_FINAL when timeoutMs runs out", async () => {
    const server = await startServer();
    server.script("queryViewerWatch", ...Array.from({ length: 10 }, () => apiError(409, "WATCH_DATA_NOT_FINAL")));
    let elapsed = 0;
    const { client } = clientFor(server, {
      clock: () => Date.now() + elapsed,
      sleep: async (ms) => void (elapsed += ms),
    });
    const error = await rejectionOf(
      client.queryViewerWatch(liveQuery, { waitForFinal: { intervalMs: 1000, timeoutMs: 3500 } }),
    );
    expect(error).toBeInstanceOf(WebinarApiError);
    expect(error).toMatchObject({ code: "WATCH_DATA_NOT_FINAL" });
    expect(server.received).toHaveLength(4);
  });

  it("iterateViewerWatch passes waitForFinal to every page", async () => {
    const server = await startServer({ dataset: createDataset(15) });
    server.script("queryViewerWatch", apiError(409, "WATCH_DATA_NOT_FINAL"));
    const { client } = clientFor(server);
    let count = 0;
    for await (const _ of client.iterateViewerWatch(
      { ...liveQuery, pageSize: 10 },
      { waitForFinal: { intervalMs: 10 } },
    ))
      count += 1;
    expect(count).toBe(15);
  });

  it("getWatchOverview: waitForLiveFinal polls the LIVE overview until FINAL", async () => {
    const server = await startServer({ dataset: createDataset(3) });
    server.dataset.webinars.get(TICKET_CODE)!.liveStates = ["PROVISIONAL", "FINALIZING", "FINAL"];
    const { client, waits } = clientFor(server);
    const overview = await client.waitForLiveFinal(TICKET_CODE, { intervalMs: 1500 });
    expect(overview.dataState).toBe("FINAL");
    expect(waits).toEqual([1500, 1500]);
    expect(server.received.map((request) => request.json?.playbackMode)).toEqual(["LIVE", "LIVE", "LIVE"]);
  });

  it("waitForLiveFinal times out with WebinarTimeoutError phase poll", async () => {
    const server = await startServer({ dataset: createDataset(1) });
    server.dataset.webinars.get(TICKET_CODE)!.liveStates = ["FINALIZING"];
    let elapsed = 0;
    const { client } = clientFor(server, {
      clock: () => Date.now() + elapsed,
      sleep: async (ms) => void (elapsed += ms),
    });
    const error = await rejectionOf(client.waitForLiveFinal(TICKET_CODE, { intervalMs: 1000, timeoutMs: 2500 }));
    expect(error).toBeInstanceOf(WebinarTimeoutError);
    expect(error).toMatchObject({ phase: "poll", timeoutMs: 2500 });
    expect((error as Error).message).toContain("FINALIZING");
    expect(server.received).toHaveLength(3);
  });

  it("waitForLiveFinal stops when its signal aborts", async () => {
    const server = await startServer({ dataset: createDataset(1) });
    server.dataset.webinars.get(TICKET_CODE)!.liveStates = ["FINALIZING"];
    const { client } = clientFor(server, {
      sleep: (ms, signal) =>
        new Promise((resolve, reject) => {
          const timer = setTimeout(resolve, ms);
          signal?.addEventListener("abort", () => {
            clearTimeout(timer);
            reject(signal.reason);
          });
        }),
    });
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error("enough")), 100);
    await expect(
      client.waitForLiveFinal(TICKET_CODE, { intervalMs: 60_000, signal: controller.signal }),
    ).rejects.toThrow("enough");
  });
});
