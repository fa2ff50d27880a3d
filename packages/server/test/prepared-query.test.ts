/**
 * db/prepared-query.ts: a query built and compiled once runs with each call's values where its placeholders were,
 * a placeholder used twice gets its value twice, and values the builder fixed stay as they were.
 */
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { prepareQuery } from "../src/db/prepared-query";
import { DATABASE_KINDS, openTestDatabase, type TestDatabase } from "./support/databases";

describe.each(DATABASE_KINDS)("prepareQuery on %s", (kind) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await openTestDatabase(kind, "prepared");
  });
  afterAll(async () => {
    await database?.close();
  });

  it("runs with each call's values; a repeated placeholder and a fixed value are both honoured", async () => {
    const { db } = database.handle;
    let builds = 0;
    const echo = prepareQuery<{ a: number; b: string }, { sum: number; text: string; fixed: string }>(db, (value) => {
      builds += 1;
      return db
        .selectNoFrom([
          sql<number>`${value("a")}::int + ${value("a")}::int`.as("sum"),
          sql<string>`${value("b")}::text`.as("text"),
          sql<string>`${"fixed"}::text`.as("fixed"),
        ])
        .where(sql<boolean>`${value("b")}::text <> ''`);
    });
    expect(await echo({ a: 2, b: "x" })).toEqual([{ sum: 4, text: "x", fixed: "fixed" }]);
    expect(await echo({ a: 20, b: "y" })).toEqual([{ sum: 40, text: "y", fixed: "fixed" }]);
    expect(await echo({ a: 1, b: "" })).toEqual([]);
    expect(builds).toBe(1);
  });
});
