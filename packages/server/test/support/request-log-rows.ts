/** Reading the request log's table in tests. */
import type { Kysely } from "kysely";
import type { Database } from "../../src/db/schema";

/** How many rows of one class (verified or not) the merchant's request log holds. */
export async function countOf(db: Kysely<Database>, merchantId: string, verified: boolean): Promise<number> {
  const row = await db
    .selectFrom("open_api_request_log")
    .select((eb) => eb.fn.countAll<string>().as("n"))
    .where("merchant_id", "=", merchantId)
    .where("verified", "=", verified)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
