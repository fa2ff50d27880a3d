/**
 * exportViewers: every record of the detail query for a mode as CSV, in the order viewers first watched, streamed
 * chunk by chunk, each chunk a keyset page of the detail query (watch-data/viewer-stream.ts), so memory stays
 * constant however many records there are: at most one chunk is read ahead of what the client has taken (the
 * stream's backpressure), and a client that goes away stops the reads.
 *
 * The file opens correctly in Excel: UTF-8 with a byte-order mark, CRLF line ends, RFC 4180 quoting (a field with
 * a comma, a quote or a line break is quoted, its quotes doubled). A text field that a spreadsheet would read as a
 * formula (starting with =, +, -, @, a tab or a carriage return) is prefixed with `'`, as OWASP advises against
 * CSV injection; numbers are written as they are. The first chunk is read before the answer starts, so a refusal
 * (404, WATCH_DATA_NOT_FINAL) is an ordinary error answer.
 */
import type { PlaybackMode, ViewerWatchRecord } from "@org/webinar-types";
import { streamViewerWatch } from "../operations/watch-data";
import type { AppServices } from "../services";
import type { ConsolePerson } from "./context";

/**
 * Records per chunk, one query each: few round trips, a chunk's rows and its CSV text stay a few megabytes, and
 * the query is short enough that the requests waiting behind it on the embedded database's one connection wait
 * little.
 */
const EXPORT_CHUNK_SIZE = 5000;

/**
 * The columns: every field of a detail-query record, in the order the `webinar` CLI's `--csv` writes them
 * (@org/webinar-client), identity first, then the figures, then the opaque subject id.
 */
export const EXPORT_COLUMNS = [
  "uid",
  "externalUserId",
  "phone",
  "displayName",
  "displayNickname",
  "totalWatchSeconds",
  "liveWatchSeconds",
  "replayWatchSeconds",
  "sessionCount",
  "firstWatchedAt",
  "lastWatchedAt",
  "deviceTypes",
  "protocols",
  "identityType",
  "subjectId",
] as const satisfies readonly (keyof ViewerWatchRecord)[];

// A field added to the record breaks the build until it is exported.
type MissingColumn = Exclude<keyof ViewerWatchRecord, (typeof EXPORT_COLUMNS)[number]>;
const everyFieldHasAColumn: [MissingColumn] extends [never] ? true : MissingColumn = true;
void everyFieldHasAColumn;

const FORMULA_START = /^[=+\-@\t\r]/;

/** One CSV field: RFC 4180 quoting, and a text that could start a formula defused. */
export function csvField(value: string | number | readonly string[] | undefined): string {
  if (value === undefined) return "";
  if (typeof value === "number") return String(value);
  const text = typeof value === "string" ? value : value.join("|");
  const safe = FORMULA_START.test(text) ? `'${text}` : text;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** A chunk's rows as one text, field by field (no array of fields per row: the profile showed their garbage). */
function csvLines(records: readonly ViewerWatchRecord[]): string {
  let text = "";
  for (const record of records) {
    for (let index = 0; index < EXPORT_COLUMNS.length; index += 1) {
      text += `${index === 0 ? "" : ","}${csvField(record[EXPORT_COLUMNS[index]!])}`;
    }
    text += "\r\n";
  }
  return text;
}

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
  // The next chunk is read while the client takes the current one (one chunk ahead, never more).
  const readAhead = () => {
    const chunk = records.read();
    // A failed read ahead is reported by the pull that awaits it, not as an unhandled rejection meanwhile.
    chunk.catch(() => undefined);
    return chunk;
  };
  let next = first === undefined ? Promise.resolve(undefined) : readAhead();
  let pending = first;
  const encoder = new TextEncoder();
  const stream = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        controller.enqueue(encoder.encode(`\uFEFF${EXPORT_COLUMNS.join(",")}\r\n`));
      },
      async pull(controller) {
        // The first chunk was read before the answer started, and the second has been asked for since.
        const chunk = pending ?? (await next);
        if (pending === undefined && chunk !== undefined) next = readAhead();
        pending = undefined;
        if (chunk === undefined) {
          controller.close();
          return;
        }
        controller.enqueue(encoder.encode(csvLines(chunk)));
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
