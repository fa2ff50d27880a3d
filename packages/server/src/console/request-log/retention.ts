/**
 * The request log's bounded retention, applied every minute by each process (deletes are idempotent): rows older
 * than the retention (WEBINAR_REQUEST_LOG_RETENTION_DAYS, 7 by default) go, and each merchant keeps at most its
 * newest WEBINAR_REQUEST_LOG_MAX_ROWS rows (100,000 by default). The cap is found per merchant through the index
 * (merchant_id, id desc): the id of the cap-th newest row, then one ranged delete below it.
 */
import type { Kysely } from "kysely";
import type { Database } from "../../db/schema";

export interface RetentionSettings {
  retentionDays: number;
  maxRowsPerMerchant: number;
}

export async function pruneRequestLog(db: Kysely<Database>, settings: RetentionSettings, nowMs: number): Promise<void> {
  await db
    .deleteFrom("open_api_request_log")
    .where("answered_at", "<", new Date(nowMs - settings.retentionDays * 86_400_000))
    .execute();
  const merchants = await db.selectFrom("merchants").select("id").execute();
  for (const { id: merchantId } of merchants) {
    const oldestKept = await db
      .selectFrom("open_api_request_log")
      .select((eb) => eb.cast<string>("id", "text").as("row_id"))
      .where("merchant_id", "=", merchantId)
      .orderBy("id", "desc")
      .offset(settings.maxRowsPerMerchant - 1)
      .limit(1)
      .executeTakeFirst();
    if (oldestKept === undefined) continue;
    await db
      .deleteFrom("open_api_request_log")
      .where("merchant_id", "=", merchantId)
      .where("id", "<", oldestKept.row_id)
      .execute();
  }
}
