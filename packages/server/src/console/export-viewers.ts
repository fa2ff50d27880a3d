/**
 * exportViewers: every record of the detail query for a mode as CSV, in the order viewers first watched, streamed
 * chunk by chunk, each chunk a keyset page of the detail query (watch-data/viewer-stream.ts), so memory stays
 * constant however many records there are: at most one chunk is read ahead of what the client has taken (the
 * stream's backpressure and the record stream's one chunk ahead), and a client that goes away stops the reads.
 *
 * The rows are written by the writer of the `webinar` CLI's `viewers export --format csv`
 * (@org/webinar-client/csv): every field of a detail-query record, CRLF line ends, RFC 4180 quoting (and quotes
 * around a text holding `;` or starting like a formula), and a `'` before a text that a spreadsheet would read as a
 * formula; an ANALYST's file has each phone masked (masked-records.ts). The file starts with the UTF-8 byte-order
 * mark, so Excel reads it as UTF-8. The first chunk is read before the answer starts, so a refusal (404,
 * WATCH_DATA_NOT_FINAL) is an ordinary error answer.
 */
import { viewerCsvHeader, viewerCsvLines } from "@org/webinar-client/csv";
import type { PlaybackMode } from "@org/webinar-types";
import { streamViewerWatch } from "../watch-data/reads";
import type { AppServices } from "../services";
import type { Release } from "../http/concurrency-limit";
import type { ConsolePerson } from "./context";
import { recordsFor } from "./masked-records";

/**
 * Records per chunk, one query each: few round trips, a chunk's rows and its CSV text stay a few megabytes, and
 * the query is short enough that the requests waiting behind it on the embedded database's one connection wait
 * little.
 */
export const EXPORT_CHUNK_SIZE = 1000;

/**
 * The CSV answer. `release` gives back the export's slot of the merchant's exports and charts (console app.ts) once
 * the answer has ended, however it ends: the last record sent, the client gone, or a refusal before the first byte.
 */
export async function exportViewers(
  services: AppServices,
  person: ConsolePerson,
  ticketCode: string,
  mode: PlaybackMode,
  release: Release,
): Promise<Response> {
  let streamed: Awaited<ReturnType<typeof streamViewerWatch>>;
  try {
    streamed = await streamViewerWatch(
      services,
      person.merchantId,
      { ticketCode, playbackMode: mode },
      EXPORT_CHUNK_SIZE,
    );
  } catch (error) {
    release();
    throw error;
  }
  const { first, stream: records } = streamed;
  let pending = first;
  const encoder = new TextEncoder();
  const stream = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        controller.enqueue(encoder.encode(viewerCsvHeader({ byteOrderMark: true })));
      },
      async pull(controller) {
        // The first chunk was read before the answer started; the stream reads the next one meanwhile.
        let chunk: typeof pending;
        try {
          chunk = pending ?? (await records.read());
        } catch (error) {
          release();
          throw error;
        }
        pending = undefined;
        if (chunk === undefined) {
          release();
          controller.close();
          return;
        }
        controller.enqueue(encoder.encode(viewerCsvLines(recordsFor(person.role, chunk))));
      },
      cancel() {
        release();
        records.cancel();
      },
    },
    { highWaterMark: 1 },
  );
  return new Response(stream, {
    status: 200,
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${ticketCode}-${mode}-viewers.csv"`,
    },
  });
}
