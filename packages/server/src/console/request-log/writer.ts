/**
 * The request log's writes, off the request path: the observer hands each row to the project's group commit
 * (`createGroupCommit` of @org/webinar-validator), which writes the rows gathered while a write is in flight in
 * one transaction of two statements: the rows whose API key belongs to a merchant (the merchant is the key's
 * owner, read in the same statement; a key of nobody's is never stored), and each verified key's `last_used_at`,
 * to the minute. So each Open API request costs one queued row and nothing else, and shows in the console within
 * the time of a write.
 */
import { sql, type Kysely } from "kysely";
import { createGroupCommit, type GroupCommit } from "@org/webinar-validator";
import type { Database } from "../../db/schema";
import type { RequestLogRow } from "./rows";

/** Most rows one write carries; a batch of more waits for the next. */
const MAX_BATCH_ROWS = 1000;
/** Longest a gathered batch waits for the write in flight. */
const MAX_WAIT_MS = 1000;

async function writeRows(db: Kysely<Database>, rows: readonly RequestLogRow[]): Promise<undefined[]> {
  const batch = JSON.stringify(rows);
  await db.transaction().execute(async (trx) => {
    await sql`
      insert into open_api_request_log
        (merchant_id, request_id, answered_at, api_key, operation_id, method, path, status, error_code, duration_ms,
         canonical_string)
      select k.merchant_id, r.request_id, r.answered_at, r.api_key, r.operation_id, r.method, r.path, r.status,
             r.error_code, r.duration_ms, r.canonical_string
      from jsonb_to_recordset(${batch}::jsonb) as r(
        request_id text, answered_at timestamptz, api_key text, operation_id text, method text, path text,
        status integer, error_code text, duration_ms integer, canonical_string text)
      join api_keys k on k.api_key = r.api_key
    `.execute(trx);
    await sql`
      update api_keys k set last_used_at = u.minute
      from (
        select r.api_key, date_trunc('minute', max(r.answered_at)) as minute
        from jsonb_to_recordset(${batch}::jsonb) as r(api_key text, answered_at timestamptz, verified boolean)
        where r.verified
        group by r.api_key
      ) u
      where k.api_key = u.api_key and (k.last_used_at is null or k.last_used_at < u.minute)
    `.execute(trx);
  });
  return rows.map(() => undefined);
}

/** The request log's group commit: call it with a row; `drain()` before the database closes. */
export function createRequestLogWriter(db: Kysely<Database>): GroupCommit<RequestLogRow, undefined> {
  return createGroupCommit((rows) => writeRows(db, rows), { maxBatchSize: MAX_BATCH_ROWS, maxWaitMs: MAX_WAIT_MS });
}
