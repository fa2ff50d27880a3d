/**
 * The readable text output of each command (the default; `--json` prints the envelope instead). Aligned
 * `label  value` lines for single objects, a fixed-width table for pages of records.
 */
import type {
  LoginTicket,
  UpsertViewerResult,
  ViewerWatchPage,
  ViewerWatchRecord,
  WatchOverview,
} from "@org/webinar-types";
import type { WithRequestId } from "../with-request-id";

function lines(rows: [string, string | number | null | undefined][]): string {
  const width = Math.max(...rows.map(([label]) => label.length));
  return rows
    .filter(([, value]) => value !== undefined)
    .map(([label, value]) => `${label.padEnd(width)}  ${value === null ? "-" : String(value)}`)
    .join("\n")
    .concat("\n");
}

export function formatUpsert(result: WithRequestId<UpsertViewerResult>): string {
  const { viewer } = result;
  return lines([
    ["uid", viewer.uid],
    ["externalUserId", viewer.externalUserId],
    ["phone", viewer.phone],
    ["displayName", viewer.displayName],
    ["created", String(result.created)],
    ["requestId", result.requestId],
  ]);
}

/** How long until `at`, in words: "in 45 s", "in 3 min", or "already expired". */
function timeUntil(atMs: number, nowMs: number): string {
  const seconds = Math.floor((atMs - nowMs) / 1000);
  if (Number.isNaN(seconds)) return "time unknown";
  if (seconds <= 0) return "already expired";
  return seconds < 120 ? `in ${seconds} s` : `in ${Math.floor(seconds / 60)} min`;
}

export function formatTicket(ticket: WithRequestId<LoginTicket>, nowMs: number = Date.now()): string {
  // The ticket itself is part of loginUrl; printing it twice only doubles what could leak from a terminal.
  const fields = lines([
    ["loginUrl", ticket.loginUrl],
    ["expiresAt", `${ticket.expiresAt} (${timeUntil(Date.parse(ticket.expiresAt), nowMs)})`],
    ["requestId", ticket.requestId],
  ]);
  return (
    `${fields}\n` +
    "The link logs the viewer in once, before expiresAt. After that (or once used) it no longer works: ask for a new\n" +
    "link by running `webinar ticket` again. A new ticket also invalidates this one if it is still unused.\n"
  );
}

export function formatOverview(overview: WithRequestId<WatchOverview>): string {
  const header = lines([
    ["ticketCode", overview.ticketCode],
    ["dataState", overview.dataState],
    ["dataUpdatedAt", overview.dataUpdatedAt],
    ["liveDataUpdatedAt", overview.liveDataUpdatedAt],
    ["replayDataUpdatedAt", overview.replayDataUpdatedAt],
    ["liveWatchSeconds", overview.liveWatchSeconds],
    ["replayWatchSeconds", overview.replayWatchSeconds],
  ]);
  const table = formatTable(
    ["scope", "viewerCount", "sessionCount", "watchSeconds"],
    (["all", "registered", "anonymous"] as const).map((scope) => [
      scope,
      ...[overview[scope].viewerCount, overview[scope].sessionCount, overview[scope].watchSeconds].map(String),
    ]),
  );
  return `${header}\n${table}\nrequestId  ${overview.requestId}\n`;
}

export function formatTable(header: string[], rows: string[][]): string {
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => (row[column] ?? "").length)),
  );
  const render = (row: string[]) =>
    row
      .map((cell, column) => cell.padEnd(widths[column]!))
      .join("  ")
      .trimEnd();
  return [render(header), ...rows.map(render)].join("\n").concat("\n");
}

/** The records of one or more pages as a table. */
export function formatViewerRecords(items: readonly ViewerWatchRecord[]): string {
  const rows = items.map((item) => [
    String(item.uid),
    item.externalUserId ?? "-",
    item.displayName ?? item.displayNickname,
    String(item.totalWatchSeconds),
    String(item.sessionCount),
    item.lastWatchedAt,
  ]);
  return rows.length === 0
    ? "(no matching viewers)\n"
    : formatTable(["uid", "externalUserId", "name", "totalWatchSeconds", "sessions", "lastWatchedAt"], rows);
}

/** A value as one shell word: single-quoted, each single quote inside closed, escaped and reopened. */
function shellQuoted(value: string): string {
  return `'${value.replaceAll("'", "'\\''")}'`;
}

/** One page, and how to get the next: the same command with `--cursor`, or `--all` for every page. */
export function formatViewerPage(page: WithRequestId<ViewerWatchPage>): string {
  const next =
    page.nextCursor === undefined
      ? "nextCursor  (none: last page)\n"
      : `nextCursor  ${page.nextCursor}\n\nMore records: run the same command with --cursor ${shellQuoted(page.nextCursor)}, or with --all for every page.\n`;
  return `${formatViewerRecords(page.items)}\nrequestId   ${page.requestId}\n${next}`;
}

/** Every page of a query: the records, how many pages they came in, and each page's requestId. */
export function formatViewerPages(pages: readonly WithRequestId<ViewerWatchPage>[]): string {
  const items = pages.flatMap((page) => page.items);
  const summary = `${items.length} record${items.length === 1 ? "" : "s"} in ${pages.length} page${pages.length === 1 ? "" : "s"}`;
  return `${formatViewerRecords(items)}\n${summary}\nrequestIds  ${pages.map((page) => page.requestId).join(" ")}\n`;
}

/**
 * The `details` of an API error, one line each: every offending field of `errors` as `pointer: message`, any
 * other detail (such as `matches` of CONTENT_SENSITIVE) as `name: value`.
 */
export function formatErrorDetails(details: Record<string, unknown> | undefined): string[] {
  if (details === undefined) return [];
  return Object.entries(details).flatMap(([name, value]) => {
    if (name === "errors" && Array.isArray(value)) return value.map(formatFieldError);
    const shown =
      Array.isArray(value) && value.every((item) => typeof item === "string")
        ? value.join(", ")
        : JSON.stringify(value);
    return [`${name}: ${shown}`];
  });
}

function formatFieldError(entry: unknown): string {
  if (typeof entry !== "object" || entry === null) return JSON.stringify(entry);
  const { pointer, message } = entry as { pointer?: unknown; message?: unknown };
  if (typeof pointer !== "string" || typeof message !== "string") return JSON.stringify(entry);
  // An empty pointer is the body itself (a rule across fields, such as the combined id limit).
  return `${pointer === "" ? "(body)" : pointer}: ${message}`;
}
