/**
 * The tests' PostgreSQL databases: dropping one right after a pool on it has ended. `pool.end()` resolves before
 * its connections have closed; a forced drop that did not wait for them would terminate the ones still closing,
 * and their pool would report it as an error event with no listener.
 */
import pg from "pg";
import { describe, expect, it } from "vitest";
import { createPostgresDatabase, POSTGRES_ADMIN_URL, queryOnce } from "./postgres-database";

/** A connection that takes 100 ms to start closing, as one does on a busy machine. */
class SlowToClose extends pg.Client {
  override end(): Promise<void>;
  override end(callback: (error: Error) => void): void;
  override end(callback?: (error: Error) => void): Promise<void> | undefined {
    const ended = new Promise((resolve) => setTimeout(resolve, 100)).then(() => super.end());
    if (callback === undefined) return ended;
    ended.then(() => callback(undefined as unknown as Error), callback);
    return undefined;
  }
}

describe("createPostgresDatabase", () => {
  it("drops a database right after its pool ends, once the pool's connections have closed", async () => {
    const database = await createPostgresDatabase("drop-after-end");
    const pool = new pg.Pool({ connectionString: database.url, max: 3, Client: SlowToClose });
    const errors: unknown[] = [];
    pool.on("error", (error) => errors.push(error));
    await Promise.all(Array.from({ length: 3 }, () => pool.query("select pg_sleep(0.01)")));
    await pool.end();
    await database.drop();
    expect(
      await queryOnce(POSTGRES_ADMIN_URL, "select 1 from pg_database where datname = $1", [database.name]),
    ).toEqual([]);
    // A terminated connection's error would arrive after the drop.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(errors).toEqual([]);
  });

  it("makes a benchmark's database on the admin URL it is given, named with its prefix", async () => {
    const adminUrl = new URL(POSTGRES_ADMIN_URL);
    adminUrl.searchParams.set("application_name", "webinar-bench");
    const database = await createPostgresDatabase("Load Server", {
      adminUrl: adminUrl.toString(),
      prefix: "webinar_bench",
    });
    expect(database.name).toMatch(/^webinar_bench_load_server_[0-9a-f]{8}$/);
    expect(new URL(database.url).pathname).toBe(`/${database.name}`);
    expect(new URL(database.url).searchParams.get("application_name")).toBe("webinar-bench");
    expect(await database.query("select current_database() as name")).toEqual([{ name: database.name }]);
    await database.drop();
    expect(
      await queryOnce(POSTGRES_ADMIN_URL, "select 1 from pg_database where datname = $1", [database.name]),
    ).toEqual([]);
  });
});
