/**
 * The caches of what rarely changes (src/cache/): a value is read once while changes are heard, a change of its
 * topic clears it in this process at once and, through NOTIFY, in every feed on the same database (two feeds here
 * stand for two server processes: on PostgreSQL each has its own listening connection, on PGlite they share the
 * embedded database), a read in flight during a change is not kept, and nothing is kept while changes are not
 * heard.
 */
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createChangeFeed, type ChangeFeed } from "../src/cache/change-feed";
import { openChangeFeed } from "../src/cache/open-change-feed";
import { createReadThroughCache } from "../src/cache/read-through-cache";
import type { StorageConfig } from "../src/config";
import { createLogger } from "../src/logging/log";
import { DATABASE_KINDS, openTestDatabase, type TestDatabase } from "./support/databases";
import { Capture } from "./support/harness";

/** Waits until `check` holds (NOTIFY from another connection arrives asynchronously), at most 2 s. */
async function eventually(check: () => boolean | Promise<boolean>): Promise<void> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > 2000) throw new Error("not within 2 s");
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe.each(DATABASE_KINDS)("read-through caches on %s", (kind) => {
  let database: TestDatabase;
  let one: ChangeFeed;
  let two: ChangeFeed;
  const storage = (): StorageConfig =>
    kind === "pglite"
      ? { kind: "pglite", dataDir: "memory:" }
      : { kind: "postgres", databaseUrl: database.env.DATABASE_URL! };

  beforeAll(async () => {
    database = await openTestDatabase(kind, "caches");
    const logger = createLogger("warn", new Capture());
    one = await openChangeFeed(storage(), database.handle, logger);
    two = await openChangeFeed(storage(), database.handle, logger);
  });
  afterAll(async () => {
    await one?.close();
    await two?.close();
    await database?.close();
  });

  /** A cache of `topic` on `feed` whose loads are counted and answer `value()`. */
  function countingCache(feed: ChangeFeed, value: () => string) {
    const loads = { count: 0 };
    const cache = createReadThroughCache<string, string>({
      feed,
      topic: "blockedTerms",
      max: 10,
      load: async () => {
        loads.count += 1;
        return value();
      },
    });
    return { cache, loads };
  }

  it("a value is loaded once and then read from memory; nothing found is never kept", async () => {
    const { cache, loads } = countingCache(one, () => "v1");
    expect([await cache.get("a"), await cache.get("a"), await cache.get("a")]).toEqual(["v1", "v1", "v1"]);
    expect(loads.count).toBe(1);
    const missing = createReadThroughCache<string, string>({
      feed: one,
      topic: "blockedTerms",
      max: 10,
      load: async () => {
        loads.count += 1;
        return undefined;
      },
    });
    await missing.get("x");
    await missing.get("x");
    expect(loads.count).toBe(3);
  });

  it("a write announcing the topic clears it at once in this feed and, by NOTIFY, in the other", async () => {
    let current = "before";
    const here = countingCache(one, () => current);
    const there = countingCache(two, () => current);
    expect([await here.cache.get("a"), await there.cache.get("a")]).toEqual(["before", "before"]);
    await one.write("blockedTerms", async (trx) => {
      await sql`select 1`.execute(trx);
      current = "after";
    });
    expect(await here.cache.get("a")).toBe("after");
    await eventually(async () => (await there.cache.get("a")) === "after");
    expect(there.loads.count).toBe(2);
  });
});

describe("read-through caches without a listening source", () => {
  it("read from the database every time, and a read in flight during a change is answered but not kept", async () => {
    let listening = false;
    const feed = await createChangeFeed({} as never, async () => ({
      get listening() {
        return listening;
      },
      close: async () => undefined,
    }));
    let loads = 0;
    let release: (() => void) | undefined;
    const cache = createReadThroughCache<string, string>({
      feed,
      topic: "webinars",
      max: 10,
      load: async () => {
        loads += 1;
        if (release === undefined) await new Promise<void>((resolve) => (release = resolve));
        return `v${loads}`;
      },
    });
    release = () => undefined;
    await cache.get("a");
    await cache.get("a");
    expect(loads).toBe(2);

    listening = true;
    release = undefined;
    const inFlight = cache.get("a");
    await eventually(() => release !== undefined);
    feed.changed("webinars");
    release!();
    expect(await inFlight).toBe("v3");
    expect(await cache.get("a")).toBe("v4");
    expect(await cache.get("a")).toBe("v4");
    expect(loads).toBe(4);
  });
});
