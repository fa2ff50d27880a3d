/**
 * Every record of the detail query (viewer-query.ts: the same statement and records) read chunk by chunk, for
 * exports: each chunk is one keyset page of the detail query, read when the reader asks for it. Between chunks the
 * export holds nothing: no transaction, no connection, so a slow download neither keeps a pool connection from
 * other requests nor, on the embedded database, its only connection; other requests wait at most one chunk's query.
 *
 * Without a snapshot, records can change between chunks while replays are watched. The stream therefore walks the
 * records in the order viewers first watched (FIRST_WATCHED_ASC), a place that crediting never moves: every record
 * that exists when the export starts is read exactly once, with its figures as of its chunk's read.
 */
import type { QueryViewerWatchRequest, ViewerWatchRecord } from "@org/webinar-types";
import type { Kysely } from "kysely";
import type { Database } from "../db/schema";
import type { CursorPosition } from "./cursor";
import { readRecordPage } from "./viewer-query";
import type { WatchedWebinar } from "./webinar-state";

type Chunk = ViewerWatchRecord[] | undefined;

export interface ViewerRecordStream {
  /** The next chunk of records, or undefined after the last. */
  read(): Promise<Chunk>;
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
  let after: CursorPosition | undefined;
  let ended = false;
  return {
    async read() {
      if (ended) return undefined;
      const { records: chunk, next } = await readRecordPage(db, merchantId, webinar, request, after);
      after = next;
      ended ||= next === undefined;
      return chunk.length === 0 ? undefined : chunk;
    },
    cancel() {
      ended = true;
    },
  };
}
