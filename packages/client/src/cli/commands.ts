/**
 * The commands of `webinar`: their options (for node:util parseArgs), help text and what they run. Each maps to
 * one client method; `viewers export` follows every page and streams it as CSV or JSON Lines.
 */
import {
  limits,
  type PlaybackMode,
  type QueryViewerWatchRequest,
  type Sort,
  type ViewerWatchPage,
} from "@org/webinar-types";
import type { WebinarClient } from "../webinar-client";
import { planIdBatches } from "../id-batches";
import { viewerCsvHeader, viewerCsvLines } from "../csv";
import { PLAYBACK_MODES, SORTS } from "./enums";
import type { WithRequestId } from "../with-request-id";
import { formatOverview, formatTicket, formatUpsert, formatViewerPage, formatViewerPages } from "./format";
import { write, type CliIo } from "./output";
import { integerOption, UsageError, type OptionSpec, type OptionValues } from "@org/webinar-internal/command-line";

export type { OptionSpec, OptionValues };

export interface CommandContext {
  values: OptionValues;
  /** Created on first use, so `--help` and usage errors need no credentials. */
  client(): WebinarClient;
  io: CliIo;
  json: boolean;
}

export interface CommandSpec {
  /** The words that select it: `upsert`, `viewers export`. */
  name: string;
  summary: string;
  usage: string;
  options: Record<string, OptionSpec>;
  /** Extra help paragraphs. */
  notes?: string;
  run(context: CommandContext): Promise<void>;
}

/** Options every command accepts. */
export const GLOBAL_OPTIONS: Record<string, OptionSpec> = {
  "base-url": { type: "string", value: "<url>", help: "API origin (default: $WEBINAR_BASE_URL)" },
  "api-key": { type: "string", value: "<key>", help: "API key (default: $WEBINAR_API_KEY)" },
  "api-secret": {
    type: "string",
    value: "<secret>",
    help: "API secret (default: $WEBINAR_API_SECRET; prefer the variable, flags show in `ps`)",
  },
  "env-file": {
    type: "string",
    value: "<file>",
    help: "read WEBINAR_* variables the environment lacks from a dotenv file (e.g. the reference server's demo-credentials.env)",
  },
  json: { type: "boolean", help: "print the answer as JSON ({ requestId, data }) instead of text" },
  "timeout-ms": { type: "string", value: "<ms>", help: "limit of one HTTP attempt (default 10000)" },
  verbose: { type: "boolean", help: "log each HTTP attempt to stderr (never secrets, signatures or tickets)" },
  help: { type: "boolean", short: "h", help: "show help" },
};

const ticketCode: OptionSpec = {
  type: "string",
  value: "<code>",
  help: "the webinar's public code (the {ticketCode} of /w/{ticketCode})",
};
const mode: OptionSpec = { type: "string", value: "<mode>", help: `playback mode: ${PLAYBACK_MODES.join(", ")}` };
const filters: Record<string, OptionSpec> = {
  "ticket-code": ticketCode,
  mode,
  sort: { type: "string", value: "<sort>", help: `order: ${SORTS.join(", ")}` },
  uid: {
    type: "string",
    multiple: true,
    value: "<uid>",
    help: "only this viewer; repeat it or separate uids with commas",
  },
  "external-user-id": {
    type: "string",
    multiple: true,
    value: "<id>",
    help: "only this external user id; repeat for several",
  },
  "min-watch-seconds": { type: "string", value: "<n>", help: "only viewers with at least n effective seconds" },
};

function text(values: OptionValues, name: string, required: true): string;
function text(values: OptionValues, name: string, required?: false): string | undefined;
function text(values: OptionValues, name: string, required = false): string | undefined {
  const value = values[name];
  if (typeof value === "string") return value;
  if (required) throw new UsageError(`--${name} is required`);
  return undefined;
}

/** A non-negative decimal integer option. */
export function integer(values: OptionValues, name: string, required: boolean): number | undefined {
  const value = required ? text(values, name, true) : text(values, name);
  return value === undefined ? undefined : integerOption(name, value);
}

function oneOf<T extends string>(values: OptionValues, name: string, allowed: readonly T[]): T {
  const value = text(values, name, true);
  if (!(allowed as readonly string[]).includes(value))
    throw new UsageError(`--${name} must be one of ${allowed.join(", ")}, got ${JSON.stringify(value)}`);
  return value as T;
}

function list(values: OptionValues, name: string): string[] {
  const value = values[name];
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === "string") : [];
}

function uids(values: OptionValues): number[] {
  return list(values, "uid")
    .flatMap((item) => item.split(","))
    .map((item) => {
      const trimmed = item.trim();
      if (!/^\d+$/.test(trimmed)) throw new UsageError(`--uid must be numbers, got ${JSON.stringify(item)}`);
      return Number(trimmed);
    });
}

/** The detail query the filter options describe, without cursor and page size. */
function viewerQuery(values: OptionValues) {
  const query: Omit<QueryViewerWatchRequest, "pageSize" | "cursor"> = {
    ticketCode: text(values, "ticket-code", true),
    playbackMode: oneOf<PlaybackMode>(values, "mode", PLAYBACK_MODES),
    sort: oneOf<Sort>(values, "sort", SORTS),
  };
  const minWatchSeconds = integer(values, "min-watch-seconds", false);
  if (minWatchSeconds !== undefined) query.minWatchSeconds = minWatchSeconds;
  const batches = planIdBatches(
    { uids: uids(values), externalUserIds: list(values, "external-user-id") },
    Number.MAX_SAFE_INTEGER,
  );
  return { query, ids: batches[0] ?? {} };
}

const pageSizeOption: OptionSpec = {
  type: "string",
  value: "<n>",
  help: `records per request, ${limits.pageSizeMin}-${limits.pageSizeMax} (default ${limits.pageSizeMax})`,
};

/** `--page-size`, or the spec's maximum, as the client's iterateViewerWatch defaults to. */
function pageSizeOf(values: OptionValues): number {
  return integer(values, "page-size", false) ?? limits.pageSizeMax;
}

/** Prints a result: `{ requestId, data }` as JSON with `--json`, else its readable text. */
async function printResult<T extends { readonly requestId: string }>(
  { io, json }: CommandContext,
  result: T,
  asText: (result: T) => string,
): Promise<void> {
  await write(
    io.stdout,
    json ? `${JSON.stringify({ requestId: result.requestId, data: result }, null, 2)}\n` : asText(result),
  );
}

const idCount = (ids: { uids?: unknown[]; externalUserIds?: unknown[] }) =>
  (ids.uids?.length ?? 0) + (ids.externalUserIds?.length ?? 0);

const upsert: CommandSpec = {
  name: "upsert",
  summary: "create or update the viewer of one of your users",
  usage: "webinar upsert --external-user-id <id> [--phone <phone>] [--display-name <name> | --clear-display-name]",
  options: {
    "external-user-id": { type: "string", value: "<id>", help: "your stable user id (case-sensitive)" },
    phone: { type: "string", value: "<phone>", help: "mainland-China mobile number to bind" },
    "display-name": { type: "string", value: "<name>", help: "display name to set" },
    "clear-display-name": { type: "boolean", help: "clear the display name (sends displayName: null)" },
  },
  async run(context) {
    const { values, client } = context;
    if (values["display-name"] !== undefined && values["clear-display-name"] === true) {
      throw new UsageError("--display-name and --clear-display-name exclude each other");
    }
    const body: Parameters<WebinarClient["upsertViewer"]>[0] = {
      externalUserId: text(values, "external-user-id", true),
    };
    const phone = text(values, "phone");
    if (phone !== undefined) body.phone = phone;
    const displayName = text(values, "display-name");
    if (displayName !== undefined) body.displayName = displayName;
    if (values["clear-display-name"] === true) body.displayName = null;
    const result = await client().upsertViewer(body);
    await printResult(context, result, formatUpsert);
  },
};

const ticket: CommandSpec = {
  name: "ticket",
  summary: "issue a one-time login ticket and print its loginUrl",
  usage: "webinar ticket --uid <uid> --ticket-code <code>",
  options: {
    uid: { type: "string", value: "<uid>", help: "the viewer's uid (from upsert)" },
    "ticket-code": ticketCode,
  },
  notes:
    "The loginUrl logs the viewer in once, before expiresAt; after that it no longer works and the viewer needs a new link: " +
    "run this command again. Issuing invalidates the viewer's previous unused ticket. The loginUrl is a temporary credential: " +
    "hand it to the user, do not log it.",
  async run(context) {
    const { values, client } = context;
    const uid = integer(values, "uid", true)!;
    const result = await client().issueLoginTicket({ uid, ticketCode: text(values, "ticket-code", true) });
    await printResult(context, result, formatTicket);
  },
};

const overview: CommandSpec = {
  name: "overview",
  summary: "print the watch-data overview of a webinar",
  usage: "webinar overview --ticket-code <code> --mode <ALL|LIVE|REPLAY>",
  options: { "ticket-code": ticketCode, mode },
  async run(context) {
    const { values, client } = context;
    const result = await client().getWatchOverview({
      ticketCode: text(values, "ticket-code", true),
      playbackMode: oneOf<PlaybackMode>(values, "mode", PLAYBACK_MODES),
    });
    await printResult(context, result, formatOverview);
  },
};

const viewers: CommandSpec = {
  name: "viewers",
  summary: "print per-viewer watch records: one page, or every page with --all",
  usage:
    "webinar viewers --ticket-code <code> --mode <mode> --sort <sort> [--page-size <n>] [--cursor <c> | --all] [--uid <uid>...] [--external-user-id <id>...] [--min-watch-seconds <n>]",
  options: {
    ...filters,
    "page-size": pageSizeOption,
    cursor: { type: "string", value: "<cursor>", help: "the nextCursor printed by the previous page, unchanged" },
    all: {
      type: "boolean",
      help: "follow every page and print all records (with --json: one { requestId, data } line per page)",
    },
  },
  notes:
    "Without --all, one page is printed, then how to get the next one. For files, use `webinar viewers export`. " +
    `At most ${limits.maxCombinedIds} ids; export batches any number.`,
  async run(context) {
    const { values, client, io, json } = context;
    const { query, ids } = viewerQuery(values);
    if (idCount(ids) > limits.maxCombinedIds) {
      throw new UsageError(
        `at most ${limits.maxCombinedIds} --uid and --external-user-id values (got ${idCount(ids)}); \`webinar viewers export\` batches any number`,
      );
    }
    const cursor = text(values, "cursor");
    const body: QueryViewerWatchRequest = { ...query, ...ids, pageSize: pageSizeOf(values) };
    if (values.all !== true) {
      if (cursor !== undefined) body.cursor = cursor;
      await printResult(context, await client().queryViewerWatch(body), formatViewerPage);
      return;
    }
    if (cursor !== undefined) throw new UsageError("--all starts at the first page; leave out --cursor");
    const pages: WithRequestId<ViewerWatchPage>[] = [];
    for await (const page of client().iterateViewerWatch(body).pages()) {
      if (json) await write(io.stdout, `${JSON.stringify({ requestId: page.requestId, data: page })}\n`);
      else pages.push(page);
    }
    if (!json) await write(io.stdout, formatViewerPages(pages));
  },
};

/** Records as JSON Lines: one record per line, as the API returned it. */
function jsonLines(records: readonly object[]): string {
  let text = "";
  for (const record of records) text += `${JSON.stringify(record)}\n`;
  return text;
}

const exportViewers: CommandSpec = {
  name: "viewers export",
  summary: "write every matching record to stdout as CSV or JSON Lines",
  usage:
    "webinar viewers export --format <csv|jsonl> --ticket-code <code> --mode <mode> --sort <sort> [--page-size <n>] [--uid <uid>...] [--external-user-id <id>...] [--min-watch-seconds <n>] [--no-bom]",
  options: {
    format: {
      type: "string",
      value: "<format>",
      help: "csv (RFC 4180, header row, arrays joined with |, a ' before text a spreadsheet would take for a formula) or jsonl (one record per line)",
    },
    ...filters,
    "page-size": pageSizeOption,
    "no-bom": {
      type: "boolean",
      help: "no UTF-8 byte-order mark at the start of a CSV written to a file (`> viewers.csv`)",
    },
  },
  notes:
    "Pages are written as they arrive; a progress line goes to stderr when it is a terminal. With more than " +
    `${limits.maxCombinedIds} ids the query runs in batches whose results are merged (by uid, in --sort order) before writing. ` +
    "A CSV written to a new or empty file starts with a UTF-8 byte-order mark, so Excel reads its names right; " +
    "to a pipe or a terminal, or appended to a file, it has none.",
  async run({ values, client, io }) {
    const format = oneOf(values, "format", ["csv", "jsonl"] as const);
    const { query, ids } = viewerQuery(values);
    const pageSize = pageSizeOf(values);
    const lines = format === "csv" ? viewerCsvLines : jsonLines;
    const api = client(); // credentials are checked before anything is written
    const progress =
      io.stderr.isTTY === true
        ? (rows: number, pages?: number) =>
            io.stderr.write(
              `\rexported ${rows} records${pages === undefined ? "" : ` (${pages} page${pages === 1 ? "" : "s"})`}`,
            )
        : undefined;
    if (format === "csv") {
      const byteOrderMark = io.stdoutIsEmptyFile === true && values["no-bom"] !== true;
      await write(io.stdout, viewerCsvHeader({ byteOrderMark }));
    }
    let rows = 0;
    if (idCount(ids) > limits.maxCombinedIds) {
      const records = await api.queryViewerWatchByIds({ ...query, ...ids, pageSize });
      // Written a page's worth at a time, so the text never holds every record at once.
      for (let start = 0; start < records.length; start += pageSize)
        await write(io.stdout, lines(records.slice(start, start + pageSize)));
      rows = records.length;
      progress?.(rows);
    } else {
      let pages = 0;
      for await (const page of api.iterateViewerWatch({ ...query, ...ids, pageSize }).pages()) {
        await write(io.stdout, lines(page.items));
        rows += page.items.length;
        pages += 1;
        progress?.(rows, pages);
      }
    }
    if (progress !== undefined) io.stderr.write("\n");
  },
};

/** Every command, in the order of the typical flow (upsert, ticket, then the watch data). */
export const COMMANDS: readonly CommandSpec[] = [upsert, ticket, overview, viewers, exportViewers];
