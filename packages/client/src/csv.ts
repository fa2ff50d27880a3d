/**
 * `@org/webinar-client/csv`: viewer watch records (the `ViewerWatchRecord` of queryViewerWatch) as CSV, the one
 * writer of the `webinar` CLI's `viewers export --format csv` and of the reference server's console export
 * (exportViewers in packages/server/console-openapi.yaml), so both files have the same columns and rules:
 *
 * - RFC 4180: a header row, CRLF line ends, a field quoted when it holds a quote, a comma or a line break, its
 *   quotes doubled; also quoted when it holds a semicolon (the separator spreadsheets use in many locales, where
 *   an unquoted `;` would split the field and let its rest start a cell) or starts like a formula (below);
 * - arrays (`deviceTypes`, `protocols`) joined with `|`, which none of their values contain; a field absent from
 *   the record is empty; numbers are written as they are;
 * - a text that a spreadsheet would read as a formula (starting with `=`, `+`, `-`, `@`, a tab or a carriage
 *   return) is prefixed with `'`, as OWASP advises against CSV injection. A negative number is a number, not a
 *   text, and is not prefixed.
 *
 * @example
 * ```ts
 * import { viewerCsvHeader, viewerCsvLines } from "@org/webinar-client/csv";
 *
 * let csv = viewerCsvHeader({ byteOrderMark: true });
 * for await (const page of client.iterateViewerWatch(query).pages()) csv += viewerCsvLines(page.items);
 * ```
 */
import type { ViewerWatchRecord } from "@org/webinar-types";

/** The columns, in order: identity first, then the figures, then the opaque subject id. */
export const VIEWER_CSV_COLUMNS = [
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
type MissingColumn = Exclude<keyof ViewerWatchRecord, (typeof VIEWER_CSV_COLUMNS)[number]>;
const everyFieldHasAColumn: [MissingColumn] extends [never] ? true : MissingColumn = true;
void everyFieldHasAColumn;

/** A value a CSV field is written from: a record's text, number or list, or nothing. */
export type CsvValue = string | number | readonly string[] | undefined;

/** What Excel, and most spreadsheets, read as the start of a formula in a cell. */
const FORMULA_START = /^[=+\-@\t\r]/;
/** A separator (`,`, or `;` in many locales), a quote or a line break inside a field. */
const NEEDS_QUOTES = /[",;\r\n]/;

/**
 * One CSV field: a text that could start a formula defused with a leading `'`, and quoted (quotes doubled) when it
 * holds a separator, a quote or a line break, or started like a formula.
 */
export function csvField(value: CsvValue): string {
  if (value === undefined) return "";
  if (typeof value === "number") return String(value);
  const text = typeof value === "string" ? value : value.join("|");
  const formula = FORMULA_START.test(text);
  const safe = formula ? `'${text}` : text;
  return formula || NEEDS_QUOTES.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** Options of {@link viewerCsvHeader}. */
export interface ViewerCsvHeaderOptions {
  /**
   * Start with the UTF-8 byte-order mark, by which Excel knows the file is UTF-8 (without it, Excel reads names
   * in other scripts, such as 张三, as the legacy code page of the machine). Default `false`: a program that reads
   * the CSV from a pipe would take the mark for part of the first column's name.
   */
  byteOrderMark?: boolean;
}

/** The header line, with its CRLF. */
export function viewerCsvHeader(options: ViewerCsvHeaderOptions = {}): string {
  return `${options.byteOrderMark === true ? "\uFEFF" : ""}${VIEWER_CSV_COLUMNS.join(",")}\r\n`;
}

/**
 * Records as CSV lines, each with its CRLF, in the order given. Each line is joined from its fields, and the text
 * from its lines, so each is one flat string: appending field by field built a rope of small strings per field, and
 * that garbage showed in the profile of the console export, which writes a million records through here
 * (packages/server/README.md, "Console benchmark").
 */
export function viewerCsvLines(records: readonly ViewerWatchRecord[]): string {
  const fields: string[] = new Array(VIEWER_CSV_COLUMNS.length);
  // One more, empty, so that the last line ends with its CRLF too.
  const lines: string[] = new Array(records.length + 1).fill("");
  for (let row = 0; row < records.length; row += 1) {
    const record = records[row]!;
    for (let index = 0; index < VIEWER_CSV_COLUMNS.length; index += 1) {
      fields[index] = csvField(record[VIEWER_CSV_COLUMNS[index]!]);
    }
    lines[row] = fields.join(",");
  }
  return lines.join("\r\n");
}
