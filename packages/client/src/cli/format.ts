/**
 * The readable text output of each command (the default; `--json` prints the envelope instead). Aligned
 * `label  value` lines for single objects, a fixed-width table for pages of records.
 */
import type { LoginTicket, UpsertViewerResult, ViewerWatchPage, WatchOverview } from "@org/webinar-types";
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

export function formatTicket(ticket: WithRequestId<LoginTicket>): string {
  // The ticket itself is part of loginUrl; printing it twice only doubles what could leak from a terminal.
  return lines([
    ["loginUrl", ticket.loginUrl],
    ["expiresAt", ticket.expiresAt],
    ["requestId", ticket.requestId],
  ]);
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
    (["all", "registered", "anonymous"] as const).map((scope) => [scope, ...[overview[scope].viewerCount, overview[scope].sessionCount, overview[scope].watchSeconds].map(String)]),
  );
  return `${header}\n${table}\nrequestId  ${overview.requestId}\n`;
}

export function formatTable(header: string[], rows: string[][]): string {
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => (row[column] ?? "").length)));
  const render = (row: string[]) => row.map((cell, column) => cell.padEnd(widths[column]!)).join("  ").trimEnd();
  return [render(header), ...rows.map(render)].join("\n").concat("\n");
}

export function formatViewerPage(page: WithRequestId<ViewerWatchPage>): string {
  const rows = page.items.map((item) => [
    String(item.uid),
    item.externalUserId ?? "-",
    item.displayName ?? item.displayNickname,
    String(item.totalWatchSeconds),
    String(item.sessionCount),
    item.lastWatchedAt,
  ]);
  const table = rows.length === 0 ? "(no matching viewers)\n" : formatTable(["uid", "externalUserId", "name", "totalWatchSeconds", "sessions", "lastWatchedAt"], rows);
  const next = page.nextCursor === undefined ? "nextCursor  (none: last page)" : `nextCursor  ${page.nextCursor}`;
  return `${table}\n${next}\nrequestId   ${page.requestId}\n`;
}
