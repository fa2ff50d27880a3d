import pg from "pg";
import { describe, expect, test } from "vitest";
import { POSTGRES_ADMIN_URL } from "@org/webinar-test-support/postgres-database";
import { cpuSecondsBetween, postgresCpuSeconds } from "./processes";

describe("postgresCpuSeconds", () => {
  test("counts the CPU of this machine's PostgreSQL backends: it grows while one computes", async () => {
    const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
    await client.connect();
    try {
      const before = postgresCpuSeconds()!;
      expect(before.size).toBeGreaterThan(0);
      // Half a second of work in the backend alone: the test process only waits.
      await client.query(
        "do $$ begin while clock_timestamp() < statement_timestamp() + interval '500 ms' loop end loop; end $$",
      );
      expect(cpuSecondsBetween(before, postgresCpuSeconds()!)).toBeGreaterThanOrEqual(0.3);
    } finally {
      await client.end();
    }
  });
});

describe("cpuSecondsBetween", () => {
  test("a process started in between counts from zero; one that exited is left out", () => {
    const before = new Map([
      [10, 1.5],
      [11, 4],
    ]);
    const after = new Map([
      [10, 2],
      [12, 0.25],
    ]);
    expect(cpuSecondsBetween(before, after)).toBe(0.75);
  });
});
