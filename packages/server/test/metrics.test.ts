/**
 * The Prometheus metrics (src/metrics/): after known traffic of every surface, a scrape of the metrics listener
 * counts each request by surface, operation, status and error code (refusals with their codes), times them by
 * surface and operation, and reports the batches, caches, change feed, pool, live viewers and process; no label
 * carries a key, ticket code or id; the public port answers /metrics as any unknown path; and a server without
 * WEBINAR_METRICS_PORT has no metrics listener.
 */
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DATABASE_KINDS, openTestDatabase, type TestDatabase } from "./support/databases";
import { ADMIN_TOKEN, startTestServer, type Merchant, type TestServer } from "./support/harness";
import { scrape, sampleValue, type Sample } from "./support/metrics-text";
import { playbackCall } from "./support/playback";

const UPSERT = "/api/v1/open/viewers/upsert";

describe.each(DATABASE_KINDS)("metrics on %s", (kind) => {
  let database: TestDatabase;
  let api: TestServer;
  let merchant: Merchant;
  let samples: Sample[];
  const refusals: Record<string, string> = {};

  /** Known traffic: what the counts below must show. */
  async function sendKnownTraffic(): Promise<void> {
    for (const externalUserId of ["m-1", "m-2", "m-3"]) await merchant.client.upsertViewer({ externalUserId });
    const forged = await api.signed(
      merchant,
      UPSERT,
      { externalUserId: "m-4" },
      { sendBody: '{"externalUserId":"x"}' },
    );
    refusals.forged = forged.body.error.code;
    expect(forged.status).toBe(401);
    const nonce = "0123456789abcdef0123456789abcdef";
    expect((await api.signed(merchant, UPSERT, { externalUserId: "m-5" }, { nonce })).status).toBe(200);
    const replay = await api.signed(merchant, UPSERT, { externalUserId: "m-5" }, { nonce });
    expect(replay.status).toBe(409);
    refusals.replay = replay.body.error.code;
    expect((await api.admin("POST", `/admin/v1/merchants/${merchant.merchantId}/webinars`, {}, null)).status).toBe(401);
    expect(
      (await api.admin("POST", `/admin/v1/webinars/${merchant.ticketCode}/live`, { action: "START" })).status,
    ).toBe(200);
    expect((await fetch(`${api.url}/healthz`)).status).toBe(200);
    expect((await fetch(`${api.url}/readyz`)).status).toBe(200);
    expect((await fetch(`${api.url}/metrics`)).status).toBe(404);
    const started = await playbackCall(api.url, "start", {
      mode: "LIVE",
      protocol: "HLS",
      deviceType: "DESKTOP",
      ticketCode: merchant.ticketCode,
    });
    expect(started.status).toBe(200);
    const cookie = started.setCookie!.split(";")[0]!;
    for (let beat = 0; beat < 2; beat += 1) {
      const answer = await playbackCall(
        api.url,
        "heartbeat",
        { playbackId: started.body.playbackId, playing: true },
        cookie,
      );
      expect(answer.status).toBe(200);
    }
  }

  beforeAll(async () => {
    database = await openTestDatabase(kind, "metrics");
    api = await startTestServer(database, { WEBINAR_METRICS_PORT: "0" });
    merchant = await api.newMerchant();
    await sendKnownTraffic();
    samples = await scrape(api.server.metricsUrl!);
  });
  afterAll(async () => {
    await api?.close();
    await database?.close();
  });

  it("serves on a listener of its own at 127.0.0.1, never on the public port", () => {
    expect(api.server.metricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
    expect(api.server.metricsUrl).not.toContain(new URL(api.url).port === "" ? "-" : `:${new URL(api.url).port}/`);
  });

  it.each([
    ["three upserts", { surface: "open", operation: "upsertViewer", status: "200", code: "" }, 4],
    ["a forged signature", { surface: "open", operation: "upsertViewer", status: "401" }, 1],
    ["a replayed nonce", { surface: "open", operation: "upsertViewer", status: "409" }, 1],
    [
      "admin without token",
      { surface: "admin", operation: "createWebinar", status: "401", code: "ADMIN_UNAUTHORIZED" },
      1,
    ],
    ["admin live START", { surface: "admin", operation: "applyLiveAction", status: "200", code: "" }, 1],
    ["liveness", { surface: "health", operation: "checkHealth", status: "200", code: "" }, 1],
    ["readiness", { surface: "health", operation: "checkReadiness", status: "200", code: "" }, 1],
    [
      "/metrics on the public port",
      { surface: "open", operation: "unknown", status: "404", code: "REQUEST_INVALID" },
      1,
    ],
    ["playback start", { surface: "watch", operation: "startPlayback", status: "200", code: "" }, 1],
    ["heartbeats", { surface: "watch", operation: "sendHeartbeat", status: "200", code: "" }, 2],
  ])("webinar_http_requests_total counts %s", (_name, labels, count) => {
    expect(sampleValue(samples, "webinar_http_requests_total", labels)).toBe(count);
  });

  it("refusals carry their error codes", () => {
    expect(refusals).toEqual({ forged: expect.stringMatching(/^OPEN_API_/), replay: "OPEN_API_REPLAYED" });
    const code = (status: string) =>
      samples.find(
        (sample) =>
          sample.name === "webinar_http_requests_total" &&
          sample.labels.operation === "upsertViewer" &&
          sample.labels.status === status,
      )?.labels.code;
    expect(code("401")).toBe(refusals.forged);
    expect(code("409")).toBe("OPEN_API_REPLAYED");
  });

  it("webinar_http_request_duration_seconds times every request by surface and operation", () => {
    const upserts = { surface: "open", operation: "upsertViewer" };
    expect(sampleValue(samples, "webinar_http_request_duration_seconds_count", upserts)).toBe(6);
    expect(sampleValue(samples, "webinar_http_request_duration_seconds_bucket", { ...upserts, le: "+Inf" })).toBe(6);
    expect(sampleValue(samples, "webinar_http_request_duration_seconds_sum", upserts)).toBeGreaterThan(0);
    const heartbeats = { surface: "watch", operation: "sendHeartbeat" };
    expect(sampleValue(samples, "webinar_http_request_duration_seconds_count", heartbeats)).toBe(2);
  });

  it("batches: heartbeat credits and nonce claims, sizes and commit durations", () => {
    expect(sampleValue(samples, "webinar_batch_size_sum", { batch: "heartbeat" })).toBe(2);
    // Every request whose signature verified claimed its nonce: four upserts and the replay.
    expect(sampleValue(samples, "webinar_batch_size_sum", { batch: "nonce_claim" })).toBe(5);
    const committed = { batch: "heartbeat", outcome: "committed" };
    expect(sampleValue(samples, "webinar_batch_commit_duration_seconds_count", committed)).toBeGreaterThanOrEqual(1);
    expect(sampleValue(samples, "webinar_batch_commit_duration_seconds_count", { outcome: "failed" })).toBeUndefined();
  });

  it("caches: hits and misses per cache, the change feed listening, invalidations counted", async () => {
    expect(sampleValue(samples, "webinar_cache_misses_total", { cache: "credentials" })).toBeGreaterThanOrEqual(1);
    expect(sampleValue(samples, "webinar_cache_hits_total", { cache: "credentials" })).toBeGreaterThanOrEqual(4);
    expect(sampleValue(samples, "webinar_change_feed_listening")).toBe(1);
    const before = sampleValue(samples, "webinar_cache_invalidations_total", { cache: "credentials" }) ?? 0;
    expect((await api.admin("POST", `/admin/v1/api-keys/${merchant.apiKey}/revoke`, {})).status).toBe(200);
    const after = await scrape(api.server.metricsUrl!);
    expect(sampleValue(after, "webinar_cache_invalidations_total", { cache: "credentials" })).toBeGreaterThan(before);
  });

  it("database: up, live viewers now by webinar state and mode, pool connections on PostgreSQL", () => {
    expect(sampleValue(samples, "webinar_database_up")).toBe(1);
    expect(sampleValue(samples, "webinar_live_viewers", { state: "LIVE", mode: "LIVE" })).toBe(1);
    if (kind === "postgres") {
      expect(sampleValue(samples, "webinar_db_pool_connections", { state: "idle" })).toBeGreaterThanOrEqual(0);
      expect(sampleValue(samples, "webinar_db_pool_connections", { state: "in_use" })).toBeGreaterThanOrEqual(0);
      // A request waiting for a connection includes the scrape's own query while its connection opens.
      expect(sampleValue(samples, "webinar_db_pool_waiting")).toBeTypeOf("number");
      expect(sampleValue(samples, "webinar_db_pool_max")).toBe(20);
    } else {
      expect(sampleValue(samples, "webinar_db_pool_connections")).toBeUndefined();
      expect(sampleValue(samples, "webinar_db_pool_max")).toBe(1);
    }
  });

  it("the process's default metrics", () => {
    expect(sampleValue(samples, "process_cpu_user_seconds_total")).toBeGreaterThan(0);
    expect(sampleValue(samples, "nodejs_heap_size_used_bytes")).toBeGreaterThan(0);
  });

  it("every metric the operations guide lists is served, and every served webinar_ metric is in the guide", () => {
    const guide = readFileSync(new URL("../../../docs/operations.md", import.meta.url), "utf8");
    const documented = new Set([...guide.matchAll(/`(webinar_[a-z_]+)`/g)].map((match) => match[1]!));
    // Histograms are served as their _bucket, _sum and _count series.
    const served = new Set(samples.map((sample) => sample.name.replace(/_(bucket|sum|count)$/, "")));
    const servedOwn = [...served].filter((name) => name.startsWith("webinar_") && !documented.has(name));
    // The embedded database has no pool: its connections are not reported.
    const absent = kind === "pglite" ? ["webinar_db_pool_connections"] : [];
    expect([...documented].filter((name) => !served.has(name))).toEqual(absent);
    expect(servedOwn).toEqual([]);
  });

  it("no label value is a key, ticket code, id or token", () => {
    const values = samples.flatMap((sample) => Object.values(sample.labels));
    for (const secret of [merchant.apiKey, merchant.secret, merchant.ticketCode, merchant.merchantId, ADMIN_TOKEN])
      expect(values.filter((value) => value.includes(secret))).toEqual([]);
    expect(values.filter((value) => value.startsWith("/"))).toEqual([]);
  });

  it("without WEBINAR_METRICS_PORT there is no metrics listener", async () => {
    const plain = await startTestServer(database);
    try {
      expect(plain.server.metricsUrl).toBeUndefined();
      expect(plain.server.services.metrics).toBeUndefined();
    } finally {
      await plain.close();
    }
  });
});
