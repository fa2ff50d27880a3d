/**
 * CSV of viewer watch records (RFC 4180): a header row, CRLF line ends, and a field quoted when it holds a
 * quote, a comma or a line break, with quotes doubled. Arrays (`deviceTypes`, `protocols`) are joined with `|`,
 * which none of their values contain. A field that is absent in the record is empty.
 */
import type { ViewerWatchRecord } from "@org/webinar-types";

/** The columns, in order: identity first, then the figures, then the opaque subject id. */
export const CSV_COLUMNS = [
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

// Every field of a record must have a column: a field added to the spec breaks the build until it is exported.
type MissingColumn = Exclude<keyof ViewerWatchRecord, (typeof CSV_COLUMNS)[number]>;
const everyFieldHasAColumn: [MissingColumn] extends [never] ? true : MissingColumn = true;
void everyFieldHasAColumn;

const NEEDS_QUOTES = /[",\r\n]/;

/** One CSV field, quoted when needed. */
export function csvField(value: string | number | readonly string[] | undefined): string {
  if (value === undefined) return "";
  const text = Array.isArray(value) ? value.join("|") : String(value);
  return NEEDS_QUOTES.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** The header line, with its CRLF. */
export function csvHeader(): string {
  return `${CSV_COLUMNS.join(",")}\r\n`;
}

/** One record as a CSV line, with its CRLF. */
export function csvRow(record: ViewerWatchRecord): string {
  return `${CSV_COLUMNS.map((column) => csvField(record[column])).join(",")}\r\n`;
}
