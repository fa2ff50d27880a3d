/**
 * Choosing the UID of a new viewer (Viewer: 10000-9999999, unique per merchant). UIDs are drawn uniformly at
 * random from the configured range, so they reveal neither order nor count; the database's primary key
 * (merchant_id, uid) settles collisions. When random draws keep colliding (the range is nearly full), a search
 * finds the smallest free UID after a random start, so the last free UIDs are still found; none at all means
 * VIEWER_UID_EXHAUSTED.
 */
import { sql, type Kysely, type Transaction } from "kysely";
import type { Database } from "../db/schema";
import type { Runtime } from "../runtime";

export interface UidRange {
  min: number;
  max: number;
}

/** Random draws tried before searching; with a range a third full, 8 collisions in a row happen once in 6561 calls. */
export const RANDOM_UID_ATTEMPTS = 8;

export function randomUid(range: UidRange, runtime: Pick<Runtime, "randomInt">): number {
  return runtime.randomInt(range.min, range.max);
}

async function smallestFreeFrom(
  db: Kysely<Database> | Transaction<Database>,
  merchantId: string,
  start: number,
  range: UidRange,
): Promise<number | null> {
  // The smallest free UID >= start is start itself or one past an occupied UID >= start.
  const { rows } = await sql<{ uid: number }>`
    select c.uid from (
      select ${start}::integer as uid
      union all
      select v.uid + 1 from viewers v where v.merchant_id = ${merchantId} and v.uid >= ${start} and v.uid < ${range.max}
    ) c
    where c.uid between ${range.min} and ${range.max}
      and not exists (select 1 from viewers w where w.merchant_id = ${merchantId} and w.uid = c.uid)
    order by c.uid
    limit 1
  `.execute(db);
  return rows[0]?.uid ?? null;
}

/** A free UID of the merchant in the range, searching from a random point and wrapping around; null when full. */
export async function searchFreeUid(
  db: Kysely<Database> | Transaction<Database>,
  merchantId: string,
  range: UidRange,
  runtime: Pick<Runtime, "randomInt">,
): Promise<number | null> {
  const start = randomUid(range, runtime);
  return (
    (await smallestFreeFrom(db, merchantId, start, range)) ??
    (start > range.min ? smallestFreeFrom(db, merchantId, range.min, range) : null)
  );
}
