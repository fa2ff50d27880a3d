/**
 * The load benchmark end to end in `--quick --json` mode on PGlite, against the built server (`pnpm test` builds
 * first): the JSON document has a server and a floor row for every operation, and every answer was right; with
 * `--profile`, the server's profile is kept and summarized; with `--tracing`, each variant is measured at full load
 * and at the offered load. Figures are not checked: timing is never asserted.
 */
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { rm } from "node:fs/promises";
import { availableParallelism } from "node:os";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { expect, test } from "vitest";
import type { Figures } from "./load/measure";
import { OPERATIONS } from "./load/operations";
import type { LoadBenchResult } from "./load/run-load-bench";

const bench = fileURLToPath(new URL("./load.bench.ts", import.meta.url));
const serverMain = fileURLToPath(new URL("../dist/main.js", import.meta.url));

/** The bench's JSON document for `flags`, quick, on PGlite, one measured second a row. */
async function runBench(flags: string[]): Promise<LoadBenchResult> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ["--import", "tsx", bench, "--quick", "--json", "--db", "pglite", "--duration", "1", "--warmup", "0", ...flags],
    {
      cwd: fileURLToPath(new URL(".", import.meta.url)),
      maxBuffer: 16 * 1024 * 1024,
    },
  );
  return JSON.parse(stdout) as LoadBenchResult;
}

function expectMeasured(figures: Figures): void {
  expect(figures.requests).toBeGreaterThan(0);
  expect(figures.checked).toBeGreaterThanOrEqual(figures.requests);
  expect(figures.errors).toEqual({ total: 0, byStatus: {}, badShape: 0, connection: 0 });
  expect(figures.requestsPerSecond).toBeGreaterThan(0);
  expect(figures.p50Ms).toBeGreaterThan(0);
  expect(figures.p99Ms).toBeGreaterThanOrEqual(figures.p50Ms);
}

test("pnpm bench:load --quick --json --db pglite: a server and a floor row per operation, 0 errors", {
  timeout: 180_000,
}, async () => {
  expect(existsSync(serverMain), "the server is built (pnpm build)").toBe(true);
  const result = await runBench(["--viewers", "100"]);

  expect(result.errors).toBe(0);
  expect(result.serverMain).toBe(serverMain);
  expect(result.cores).toBe(availableParallelism());
  expect(result.settings).toMatchObject({
    quick: true,
    durationSeconds: 1,
    warmupSeconds: 0,
    heartbeatViewers: 100,
    profile: null,
  });
  expect(result.databases.map((database) => database.database)).toEqual(["pglite"]);
  expect(result.twoProcesses).toBeNull();
  expect(result.profiles).toBeNull();
  const rows = result.databases[0]!.operations;
  expect(rows.map((row) => row.operation)).toEqual(OPERATIONS.map((operation) => operation.id));
  for (const row of rows) {
    expectMeasured(row.server);
    expectMeasured(row.floor);
    expect(row.serverToFloor).toBeCloseTo(row.server.requestsPerSecond / row.floor.requestsPerSecond, 6);
  }
});

test("--profile heartbeat: only the heartbeat row, and the server's profile summarized over its measured second", {
  timeout: 180_000,
}, async () => {
  const result = await runBench(["--profile", "heartbeat", "--viewers", "50"]);

  expect(result.errors).toBe(0);
  expect(result.settings).toMatchObject({ heartbeatViewers: 50, profile: "heartbeat" });
  expect(result.databases[0]!.operations.map((row) => row.operation)).toEqual(["heartbeat"]);
  const [profile, ...others] = result.profiles!;
  expect(others).toEqual([]);
  expect(profile).toMatchObject({ database: "pglite", operation: "heartbeat" });
  expect(existsSync(profile!.file), profile!.file).toBe(true);
  await rm(dirname(profile!.file), { recursive: true, force: true });
  // About one measured second sampled, some of it busy, and the top entries name functions with their share.
  expect(profile!.summary.windowMicros).toBeGreaterThan(500_000);
  expect(profile!.summary.busyMicros).toBeGreaterThan(0);
  expect(profile!.summary.entries.length).toBeGreaterThan(5);
  for (const entry of profile!.summary.entries) {
    expect(entry.functionName).not.toBe("");
    expect(entry.share).toBeGreaterThan(0);
    expect(entry.share).toBeLessThanOrEqual(1);
  }
});

test("--tracing: each variant's row has its rounds at full load and at the offered load, with CPU per request", {
  timeout: 240_000,
}, async () => {
  const result = await runBench(["--tracing", "--only", "upsertExistingViewer", "--viewers", "50"]);

  expect(result.errors).toBe(0);
  const { rows, exports } = result.tracing!;
  expect(rows.map((row) => row.variant)).toEqual([
    "traced, every span",
    "traced, 10% sampled",
    "request log off",
    "ordinary again (noise)",
  ]);
  // The noise row has no goal: it measures the bench, not a feature.
  expect(rows.map((row) => row.goal)).toEqual([0.2, 0.05, 0.05, null]);
  // Every span was exported to the bench's sink.
  expect(exports).toBeGreaterThan(0);
  const capacity = result.databases[0]!.operations[0]!.server.requestsPerSecond;
  for (const row of rows) {
    expect(row).toMatchObject({ database: "pglite", operation: "upsertExistingViewer" });
    expect(row.offeredLoad).toBe(Math.max(1, Math.round(capacity / 2)));
    const [round, ...more] = row.rounds;
    expect(more).toEqual([]);
    for (const figures of [round!.atEqualLoad.ordinary, round!.atEqualLoad.variant, round!.atEqualLoad.floor]) {
      expectMeasured(figures);
      // Held to the offered rate for its one second, not as many as the server answers.
      expect(figures.requests).toBeLessThanOrEqual(row.offeredLoad * 1.5 + 16);
      expect(figures.cpuMicrosPerRequest).toBeGreaterThan(0);
      expect(figures.databaseCpuMicrosPerRequest).toBeGreaterThanOrEqual(0);
    }
    expect(typeof row.cpuCost).toBe("number");
    expect(row.cpuAtEqualLoad.ordinary.server).toBe(round!.atEqualLoad.ordinary.cpuMicrosPerRequest);
  }
});
