/**
 * listRequests: a page of the merchant's request log, newest first, filtered by status (one or a class such as
 * `4xx`), error code (`NONE`: accepted), operation, API key and request id. Always scoped to the merchant, so a
 * request of another merchant never appears whatever the filters say.
 */
import type { Kysely } from "kysely";
import type { operations } from "@org/webinar-console-contract";
import type { Database } from "../../db/schema";
import { decodeCursor, encodeCursor } from "../page-cursor";

type Query = NonNullable<operations["listRequests"]["parameters"]["query"]>;
type Page = Omit<operations["listRequests"]["responses"]["200"]["content"]["application/json"], "requestId">;

const PAGE_SIZE = 50;

export async function listRequests(db: Kysely<Database>, merchantId: string, filters: Query): Promise<Page> {
  const after = decodeCursor(filters.cursor, ["string"]);
  let query = db
    .selectFrom("open_api_request_log")
    .select((eb) => [
      eb.cast<string>("id", "text").as("row_id"),
      "request_id",
      "answered_at",
      "api_key",
      "operation_id",
      "method",
      "path",
      "status",
      "error_code",
      "duration_ms",
      "canonical_string",
    ])
    .where("merchant_id", "=", merchantId)
    .orderBy("id", "desc")
    .limit(PAGE_SIZE + 1);
  if (after !== undefined) query = query.where("id", "<", String(after[0]));
  if (filters.requestId !== undefined) query = query.where("request_id", "=", filters.requestId);
  if (filters.apiKey !== undefined) query = query.where("api_key", "=", filters.apiKey);
  if (filters.operationId !== undefined) query = query.where("operation_id", "=", filters.operationId);
  if (filters.errorCode === "NONE") query = query.where("error_code", "is", null);
  else if (filters.errorCode !== undefined) query = query.where("error_code", "=", filters.errorCode);
  if (filters.status?.endsWith("xx")) {
    const low = Number(filters.status[0]) * 100;
    query = query.where("status", ">=", low).where("status", "<", low + 100);
  } else if (filters.status !== undefined) query = query.where("status", "=", Number(filters.status));
  const rows = await query.execute();
  const items = rows.slice(0, PAGE_SIZE).map((row) => ({
    requestId: row.request_id,
    at: new Date(row.answered_at).toISOString(),
    apiKey: row.api_key,
    operationId: row.operation_id,
    method: row.method,
    path: row.path,
    status: row.status,
    errorCode: row.error_code,
    durationMs: row.duration_ms,
    ...(row.canonical_string === null ? {} : { canonicalString: row.canonical_string }),
  }));
  const last = rows[PAGE_SIZE - 1];
  return rows.length > PAGE_SIZE && last !== undefined ? { items, nextCursor: encodeCursor([last.row_id]) } : { items };
}
