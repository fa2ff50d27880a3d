/**
 * One span per background batch (a request-log batch, a heartbeat group commit): a root span of its own, never a
 * child of whichever request happened to open the batch. The batch is written with a database whose statements
 * are its children (traced-dialect.ts), so a trace backend shows one trace per batch with BEGIN, the statements
 * and COMMIT under it, instead of one root trace per statement. The span says how many calls the batch carried,
 * nothing of what they were.
 */
import { ROOT_CONTEXT, SpanKind, type Tracer } from "@opentelemetry/api";
import type { Kysely } from "kysely";
import type { Database } from "../db/schema";
import { endWhenSettled } from "./settled-span";
import type { DatabaseUnder } from "./traced-dialect";

/** Runs a batch's write with the database it writes through: the batch span's, or without tracing the server's. */
export type InBatchSpan = <T>(name: string, size: number, write: (db: Kysely<Database>) => Promise<T>) => Promise<T>;

/** No tracing: the write runs as it is, on the server's database. */
export const untracedBatches =
  (db: Kysely<Database>): InBatchSpan =>
  (_name, _size, write) =>
    write(db);

/**
 * @example
 * const inBatchSpan = batchSpans(tracer, db, traced.under);
 * await inBatchSpan("request log batch", rows.length, (db) => writeRows(db, rows));
 */
export function batchSpans(tracer: Tracer, db: Kysely<Database>, databaseUnder: DatabaseUnder): InBatchSpan {
  return (name, size, write) => {
    const span = tracer.startSpan(
      name,
      { kind: SpanKind.INTERNAL, attributes: { "webinar.batch.size": size } },
      ROOT_CONTEXT,
    );
    // A batch the sampler left out writes as it is, making no span.
    return endWhenSettled(span, write(span.isRecording() ? databaseUnder(span) : db), () => "batch failed");
  };
}
