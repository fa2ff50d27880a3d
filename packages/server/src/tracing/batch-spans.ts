/**
 * One span per background batch (a request-log batch, a heartbeat group commit): a root span of its own, never a
 * child of whichever request happened to open the batch, active while the batch is written so its statements
 * (traced-dialect.ts) become its children. A trace backend then shows one trace per batch with BEGIN, the
 * statements and COMMIT under it, instead of one root trace per statement. The span says how many calls the
 * batch carried, nothing of what they were.
 */
import { ROOT_CONTEXT, SpanKind, type Tracer } from "@opentelemetry/api";
import { endWhenSettled } from "./settled-span";

/** Runs a batch's write inside its span; without tracing, just runs it. */
export type InBatchSpan = <T>(name: string, size: number, write: () => Promise<T>) => Promise<T>;

/** No tracing: the write runs as it is. */
export const untracedBatch: InBatchSpan = (_name, _size, write) => write();

/**
 * @example
 * const inBatchSpan = batchSpans(tracer);
 * await inBatchSpan("request log batch", rows.length, () => writeRows(rows));
 */
export function batchSpans(tracer: Tracer): InBatchSpan {
  return (name, size, write) =>
    tracer.startActiveSpan(
      name,
      { kind: SpanKind.INTERNAL, attributes: { "webinar.batch.size": size } },
      ROOT_CONTEXT,
      (span) => endWhenSettled(span, write(), () => "batch failed"),
    );
}
