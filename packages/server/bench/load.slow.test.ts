/**
 * The load benchmark end to end in `--quick --json` mode on PGlite, against the built server (`pnpm test` builds
 * first): the JSON document has a server and a floor row for every operation, and every answer was right.
 * Figures are not checked: timing is never asserted.
 */
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { expect, test } from "vitest";
import type { Figures } from "./load/measure";
import { OPERATIONS } from "./load/operations";
import type { LoadBenchResult } from "./load/run-load-bench";

const bench = fileURLToPath(new URL("./load.bench.ts", import.meta.url));
const serverMain = fileURLToPath(new URL("../dist/main.js", import.meta.url));

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
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ["--import", "tsx", bench, "--quick", "--json", "--db", "pglite", "--duration", "1", "--warmup", "0"],
    {
      cwd: fileURLToPath(new URL(".", import.meta.url)),
      maxBuffer: 16 * 1024 * 1024,
    },
  );
  const result = JSON.parse(stdout) as LoadBenchResult;

  expect(result.errors).toBe(0);
  expect(result.serverMain).toBe(serverMain);
  expect(result.cores).toBe(availableParallelism());
  expect(result.settings).toMatchObject({ quick: true, durationSeconds: 1, warmupSeconds: 0 });
  expect(result.databases.map((database) => database.database)).toEqual(["pglite"]);
  expect(result.twoProcesses).toBeNull();
  const rows = result.databases[0]!.operations;
  expect(rows.map((row) => row.operation)).toEqual(OPERATIONS.map((operation) => operation.id));
  for (const row of rows) {
    expectMeasured(row.server);
    expectMeasured(row.floor);
    expect(row.serverToFloor).toBeCloseTo(row.server.requestsPerSecond / row.floor.requestsPerSecond, 6);
  }
});
