/**
 * Every record of the detail query (viewer-query.ts: the same statement and records) read chunk by chunk, for
 * exports: each chunk is one keyset page of the detail query. Between chunks the export holds nothing: no
 * transaction, no connection, so a slow download neither keeps a pool connection from other requests nor, on the
 * embedded database, its only connection; other requests wait at most one chunk's query.
 *
 * The query of the next chunk is sent as soon as a chunk's rows arrive, so the database reads it while the chunk's
 * viewers' identity fields are looked up (on PostgreSQL, on another pool connection) and this process makes the
 * records (and an export, CSV text): one chunk ahead of the reader, never more. The page queries themselves run one
 * after another, as each page starts after the last row of the one before.
 *
 * Without a snapshot, records can change between chunks while replays are watched. The stream therefore walks the
 * records in the order viewers first watched (FIRST_WATCHED_ASC), a place that crediting never moves: every record
 * that exists when the export starts is read exactly once, with its figures as of its chunk's read.
 */
import type { QueryViewerWatchRequest, ViewerWatchRecord } from "@org/webinar-types";
import type { Kysely } from "kysely";
import type { Database } from "../db/schema";
import type { CursorPosition } from "./cursor";
import { type RowPage, readRowPage, recordsOf } from "./viewer-query";
import type { WatchedWebinar } from "./webinar-state";

export interface ViewerRecordStream {
  /** The next chunk of records, or undefined after the last; one read at a time. */
  read(): Promise<ViewerWatchRecord[] | undefined>;
  /** Stops reading: every later read answers undefined. */
  cancel(): void;
}

/** The detail query's filters of the records an export holds, in the stream's own order. */
export type ExportedRecords = Omit<QueryViewerWatchRequest, "cursor" | "pageSize" | "sort">;

export function streamViewerRecords(
  db: Kysely<Database>,
  merchantId: string,
  webinar: WatchedWebinar,
  records: ExportedRecords,
  chunkSize: number,
): ViewerRecordStream {
  const request: QueryViewerWatchRequest = { ...records, sort: "FIRST_WATCHED_ASC", pageSize: chunkSize };
  const readAhead = (after: CursorPosition | undefined) => {
    const page = readRowPage(db, merchantId, webinar.id, request, after);
    // A read ahead that fails is reported by the read that awaits it, or by none after a cancel; never unhandled.
    page.catch(() => undefined);
    return page;
  };
  let ahead: Promise<RowPage> | undefined = readAhead(undefined);
  let cancelled = false;
  return {
    async read() {
      if (cancelled || ahead === undefined) return undefined;
      const { rows, next } = await ahead;
      if (cancelled) return undefined;
      ahead = next === undefined ? undefined : readAhead(next);
      return rows.length === 0 ? undefined : recordsOf(db, merchantId, webinar.id, rows);
    },
    cancel() {
      cancelled = true;
    },
  };
}
