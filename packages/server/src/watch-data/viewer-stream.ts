/**
 * Every record of the detail query (viewer-query.ts: the same statement, order and records) read through one
 * server-side cursor, chunk by chunk, for exports. One statement instead of a keyset page query per chunk: it is
 * planned once and each FETCH goes on with the same index scan where the last one stopped. The planner keeps its
 * fast-start plan for a cursor (the default `cursor_tuple_fraction`), so each FETCH does about one page's work and
 * stays within the statement timeout; a plan told to read every row (hash join and sort: faster in total on 1M
 * records) would do all of it in the first FETCH, seconds that the default timeout refuses. The cursor lives in a
 * transaction on one connection, held until the last chunk is read or the reader cancels; a chunk is fetched only
 * when the reader asks for it.
 */
import { CompiledQuery, type Kysely, sql } from "kysely";
import type { QueryViewerWatchRequest, ViewerWatchRecord } from "@org/webinar-types";
import type { Database } from "../db/schema";
import { type SubjectRow, toRecord, viewerRecordsQuery } from "./viewer-query";
import type { WatchedWebinar } from "./webinar-state";

type Chunk = ViewerWatchRecord[] | undefined;
type Ask = { resolve(chunk: Chunk): void; reject(error: unknown): void } | "cancel";

export interface ViewerRecordStream {
  /** The next chunk of records, or undefined after the last. */
  read(): Promise<Chunk>;
  /** Stops reading: the cursor's transaction ends and its connection is released. */
  cancel(): void;
}

/** A queue of the reader's asks that the cursor's loop waits on. */
function askQueue() {
  const asks: Ask[] = [];
  let arrived: (() => void) | undefined;
  return {
    push(ask: Ask) {
      asks.push(ask);
      arrived?.();
      arrived = undefined;
    },
    async next(): Promise<Ask> {
      while (asks.length === 0) {
        await new Promise<void>((resolve) => {
          arrived = resolve;
        });
      }
      return asks.shift()!;
    },
    drain: () => asks.splice(0),
  };
}

export function streamViewerRecords(
  db: Kysely<Database>,
  merchantId: string,
  webinar: WatchedWebinar,
  request: QueryViewerWatchRequest,
  chunkSize: number,
): ViewerRecordStream {
  const { sql: text, parameters } = viewerRecordsQuery(db, merchantId, webinar.id, request).compile();
  const asks = askQueue();
  let ended: { error: unknown } | undefined;
  const finish = (error: unknown) => {
    ended = { error };
    for (const ask of asks.drain())
      if (ask !== "cancel") error === undefined ? ask.resolve(undefined) : ask.reject(error);
  };
  db.transaction()
    .execute(async (trx) => {
      await trx.executeQuery(CompiledQuery.raw(`declare export_records no scroll cursor for ${text}`, [...parameters]));
      const fetch = sql<SubjectRow>`fetch forward ${sql.raw(String(chunkSize))} from export_records`;
      for (;;) {
        const ask = await asks.next();
        if (ask === "cancel") return;
        const { rows } = await fetch.execute(trx).catch((error: unknown) => {
          ask.reject(error);
          throw error;
        });
        ask.resolve(rows.length === 0 ? undefined : rows.map((row) => toRecord(webinar.id, row)));
        if (rows.length < chunkSize) return;
      }
    })
    .then(
      () => finish(undefined),
      (error: unknown) => finish(error),
    );
  return {
    read: () =>
      ended === undefined
        ? new Promise<Chunk>((resolve, reject) => asks.push({ resolve, reject }))
        : ended.error === undefined
          ? Promise.resolve(undefined)
          : Promise.reject(ended.error),
    cancel: () => asks.push("cancel"),
  };
}
