/**
 * The real Prometheus server (Debian's `prometheus` package, which scripts/test-prerequisites.sh installs) scrapes
 * the metrics listener, and its query API returns the count of the upserts this test made.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DATABASE_KINDS, openTestDatabase, type TestDatabase } from "./support/databases";
import { startTestServer, type Merchant, type TestServer } from "./support/harness";

const PROMETHEUS = process.env.PROMETHEUS_PATH ?? "/usr/bin/prometheus";
const UPSERTS = 7;

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

async function until<T>(what: string, timeoutMs: number, probe: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (error) {
      last = error;
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${what}: not within ${timeoutMs} ms (last error: ${String(last)})`);
}

describe("Prometheus scrapes the metrics listener", () => {
  let database: TestDatabase;
  let api: TestServer;
  let merchant: Merchant;
  let prometheus: ChildProcess | undefined;
  let prometheusUrl: string;
  let dir: string;
  let output = "";

  beforeAll(async () => {
    database = await openTestDatabase(DATABASE_KINDS[0]!, "prometheus");
    api = await startTestServer(database, { WEBINAR_METRICS_PORT: "0" });
    merchant = await api.newMerchant();
    const target = new URL(api.server.metricsUrl!).host;
    dir = await mkdtemp(path.join(tmpdir(), "webinar-prometheus-"));
    const config = path.join(dir, "prometheus.yml");
    await writeFile(
      config,
      `global:\n  scrape_interval: 1s\n  evaluation_interval: 1s\nscrape_configs:\n  - job_name: webinar\n    static_configs:\n      - targets: ["${target}"]\n`,
    );
    const port = await freePort();
    prometheusUrl = `http://127.0.0.1:${port}`;
    prometheus = spawn(
      PROMETHEUS,
      [
        `--config.file=${config}`,
        `--storage.tsdb.path=${path.join(dir, "data")}`,
        `--web.listen-address=127.0.0.1:${port}`,
      ],
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    prometheus.stdout?.on("data", (chunk) => (output += String(chunk)));
    prometheus.stderr?.on("data", (chunk) => (output += String(chunk)));
    await until("Prometheus ready", 30_000, async () =>
      (await fetch(`${prometheusUrl}/-/ready`)).status === 200 ? true : undefined,
    ).catch((error: Error) => {
      throw new Error(`${error.message}\n${output}`);
    });
  });
  afterAll(async () => {
    if (prometheus?.exitCode === null) {
      const exited = new Promise((resolve) => prometheus!.once("exit", resolve));
      prometheus.kill("SIGTERM");
      await exited;
    }
    await api?.close();
    await database?.close();
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
  });

  it("its query API returns the number of upserts made", async () => {
    for (let index = 0; index < UPSERTS; index += 1)
      await merchant.client.upsertViewer({ externalUserId: `prometheus-${index}` });
    const query = `sum(webinar_http_requests_total{surface="open",operation="upsertViewer",status="200",code=""})`;
    const counted = await until("the upserts counted in Prometheus", 30_000, async () => {
      const response = await fetch(`${prometheusUrl}/api/v1/query?query=${encodeURIComponent(query)}`);
      const body = (await response.json()) as { status: string; data: { result: { value: [number, string] }[] } };
      const value = body.data.result[0]?.value[1];
      return value === String(UPSERTS) ? Number(value) : undefined;
    });
    expect(counted).toBe(UPSERTS);
    const up = await fetch(`${prometheusUrl}/api/v1/query?query=${encodeURIComponent('up{job="webinar"}')}`);
    expect(((await up.json()) as { data: { result: { value: [number, string] }[] } }).data.result[0]?.value[1]).toBe(
      "1",
    );
  });
});
