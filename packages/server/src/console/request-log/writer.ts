/**
 * The request log's writes, off the request path: the observer hands each entry to the project's group commit
 * (`createGroupCommit` of @org/webinar-internal), which writes the entries of a quarter of a second (more while a
 * write is in flight) as one statement: the rows whose API key belongs to a merchant (the merchant is the key's
 * owner, read in the same statement; a key of nobody's is never stored), and each verified key's `last_used_at`,
 * to the minute. One statement is atomic by itself, so a batch costs one round trip and no transaction. The
 * per-row work (masking, the operation of an unmatched path) is done here, for the whole batch, not on the request
 * path. The batch travels as `json`, not `jsonb`: `json_to_recordset` reads the text once, where `jsonb` would first
 * build and key-sort a binary copy of every row only to take it apart again.
 */
import { sql, type Kysely } from "kysely";
import { createGroupCommit, type GroupCommit } from "@org/webinar-internal/group-commit";
import type { RequestVerifier } from "@org/webinar-validator";
import type { Database } from "../../db/schema";
import { type InBatchSpan, untracedBatches } from "../../tracing/batch-spans";
import { type RequestLogEntry, storedRow } from "./rows";

/** Most rows one write carries; a batch of more waits for the next. */
const MAX_BATCH_ROWS = 1000;
/** Longest a gathered batch waits for the write in flight. */
const MAX_WAIT_MS = 1000;
/**
 * How long a batch gathers before it is written, even when the database is idle. No caller waits for these
 * rows, so they can wait: a row per request, written at once, would cost each request a statement of its own
 * whenever writes finish faster than requests arrive; a quarter of a second of them shares one instead.
 */
const LINGER_MS = 250;

async function writeRows(
  db: Kysely<Database>,
  verifier: Pick<RequestVerifier, "matchPath">,
  entries: readonly RequestLogEntry[],
): Promise<undefined[]> {
  const batch = JSON.stringify(entries.map((entry) => storedRow(entry, verifier)));
  await sql`
    with r as (
      select * from rows from (json_to_recordset(${batch}::json) as (
        request_id text, answered_at timestamptz, api_key text, operation_id text, method text, path text,
        status integer, error_code text, duration_ms integer, canonical_string text, verified boolean)
      ) with ordinality as r
    ), logged as (
      insert into open_api_request_log
        (merchant_id, request_id, answered_at, api_key, operation_id, method, path, status, error_code, duration_ms,
         canonical_string, verified)
      select k.merchant_id, r.request_id, r.answered_at, r.api_key, r.operation_id, r.method, r.path, r.status,
             r.error_code, r.duration_ms, r.canonical_string, r.verified
      from r join api_keys k on k.api_key = r.api_key
      -- Ids in the order the requests were answered, which the console pages by; the join alone may reorder.
      order by r.ordinality
    )
    update api_keys k set last_used_at = u.minute
    from (
      select r.api_key, date_trunc('minute', max(r.answered_at)) as minute from r where r.verified group by r.api_key
    ) u
    where k.api_key = u.api_key and (k.last_used_at is null or k.last_used_at < u.minute)
  `.execute(db);
  return entries.map(() => undefined);
}

/** The request log's group commit: call it with an entry; `drain()` before the database closes. */
export function createRequestLogWriter(
  db: Kysely<Database>,
  verifier: Pick<RequestVerifier, "matchPath">,
  inBatchSpan: InBatchSpan = untracedBatches(db),
): GroupCommit<RequestLogEntry, undefined> {
  const write = (entries: readonly RequestLogEntry[]) =>
    inBatchSpan("request log batch", entries.length, (batchDb) => writeRows(batchDb, verifier, entries));
  return createGroupCommit(write, {
    maxBatchSize: MAX_BATCH_ROWS,
    maxWaitMs: MAX_WAIT_MS,
    lingerMs: LINGER_MS,
  });
}
