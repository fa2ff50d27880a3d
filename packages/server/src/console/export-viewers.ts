/**
 * exportViewers: every record of the detail query for a mode as CSV, streamed page by page (keyset pages of the
 * detail query's own code, operations/watch-data.ts), so memory stays constant however many records there are:
 * at most one page is read ahead of what the client has taken (the stream's backpressure).
 *
 * The file opens correctly in Excel: UTF-8 with a byte-order mark, CRLF line ends, RFC 4180 quoting (a field with
 * a comma, a quote or a line break is quoted, its quotes doubled). A text field that a spreadsheet would read as a
 * formula (starting with =, +, -, @, a tab or a carriage return) is prefixed with `'`, as OWASP advises against
 * CSV injection; numbers are written as they are. The first page is read before the answer starts, so a refusal
 * (404, WATCH_DATA_NOT_FINAL) is an ordinary error answer.
 */
import type { PlaybackMode, QueryViewerWatchRequest, ViewerWatchPage, ViewerWatchRecord } from "@org/webinar-types";
import { readViewerWatch } from "../operations/watch-data";
import type { AppServices } from "../services";
import type { ConsolePerson } from "./context";

/**
 * Records per page read: larger than the Open API's page (fewer round trips), small enough that a page's rows
 * and its CSV text stay a few megabytes.
 */
const EXPORT_PAGE_SIZE = 5000;

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

function csvLines(records: readonly ViewerWatchRecord[]): string {
  let text = "";
  for (const record of records) text += `${EXPORT_COLUMNS.map((column) => csvField(record[column])).join(",")}\r\n`;
  return text;
}

export async function exportViewers(
  services: AppServices,
  person: ConsolePerson,
  ticketCode: string,
  mode: PlaybackMode,
): Promise<Response> {
  const query: QueryViewerWatchRequest = {
    ticketCode,
    playbackMode: mode,
    sort: "WATCH_SECONDS_DESC",
    pageSize: EXPORT_PAGE_SIZE,
  };
  const readPage = (cursor: string | undefined): Promise<ViewerWatchPage> =>
    readViewerWatch(
      services,
      person.merchantId,
      cursor === undefined ? query : { ...query, cursor },
      services.cursorKey,
    );
  // The next page is read while the client takes the current one (one page ahead, never more).
  let next: Promise<ViewerWatchPage> | undefined = Promise.resolve(await readPage(undefined));
  const encoder = new TextEncoder();
  const stream = new ReadableStream<Uint8Array>(
    {
      start(controller) {
        controller.enqueue(encoder.encode(`\uFEFF${EXPORT_COLUMNS.join(",")}\r\n`));
      },
      async pull(controller) {
        if (next === undefined) {
          controller.close();
          return;
        }
        const { items, nextCursor } = await next;
        next = nextCursor === undefined ? undefined : readPage(nextCursor);
        // A failed read ahead is reported by the pull that awaits it, not as an unhandled rejection meanwhile.
        next?.catch(() => undefined);
        controller.enqueue(encoder.encode(csvLines(items)));
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
