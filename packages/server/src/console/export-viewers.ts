/**
 * exportViewers: every record of the detail query for a mode as CSV, in the order viewers first watched, streamed
 * chunk by chunk, each chunk a keyset page of the detail query (watch-data/viewer-stream.ts), so memory stays
 * constant however many records there are: at most one chunk is read ahead of what the client has taken (the
 * stream's backpressure and the record stream's one chunk ahead), and a client that goes away stops the reads.
 *
 * The rows are written by the writer of the `webinar` CLI's `viewers export --format csv`
 * (@org/webinar-client/csv): every field of a detail-query record, CRLF line ends, RFC 4180 quoting, and a `'`
 * before a text that a spreadsheet would read as a formula. The file starts with the UTF-8 byte-order mark, so
 * Excel reads it as UTF-8. The first chunk is read before the answer starts, so a refusal (404,
 * WATCH_DATA_NOT_FINAL) is an ordinary error answer.
 */
import { viewerCsvHeader, viewerCsvLines } from "@org/webinar-client/csv";
import type { PlaybackMode } from "@org/webinar-types";
import { streamViewerWatch } from "../operations/watch-data";
import type { AppServices } from "../services";
import type { ConsolePerson } from "./context";

/**
 * Records per chunk, one query each: few round trips, a chunk's rows and its CSV text stay a few megabytes, and
 * the query is short enough that the requests waiting behind it on the embedded database's one connection wait
 * little.
 */
export const EXPORT_CHUNK_SIZE = 1000;

export async function exportViewers(
  services: AppServices,
  person: ConsolePerson,
  ticketCode: string,
  mode: PlaybackMode,
): Promise<Response> {
  const { first, stream: records } = await streamViewerWatch(
    services,
    person.merchantId,
    { ticketCode, playbackMode: mode },
    EXPORT_CHUNK_SIZE,
  );
  let pending = first;
  const encoder = new TextEncoder();
  const stream = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        controller.enqueue(encoder.encode(viewerCsvHeader({ byteOrderMark: true })));
      },
      async pull(controller) {
        // The first chunk was read before the answer started; the stream reads the next one meanwhile.
        const chunk = pending ?? (await records.read());
        pending = undefined;
        if (chunk === undefined) {
          controller.close();
          return;
        }
        controller.enqueue(encoder.encode(viewerCsvLines(chunk)));
      },
      cancel() {
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
