/**
 * Writes spec/test-vectors/requests/<operationId>.json: the request-body rules of spec §4 (and §2.6, §8) as
 * language-neutral vectors, positive and negative, each description citing its rule. The expectations are
 * written here by hand from the spec text; this script only expands long values (191-character ids, 300-item
 * lists) that nobody should type. `scripts/write-request-vectors.ts` writes the files; a test fails when they differ
 * from what this module renders.
 *
 * A vector is `{ description, body, valid, code }`, with `rawBody` (a string) instead of `body` for bodies that
 * are not one JSON value, or `rawBodyHex` for bytes that are not UTF-8. `code` is null for valid bodies. Optional:
 * `pointer`, the JSON pointer of (one of) the offending field(s); `normalized`, the body a server works with
 * when it differs from `body` (trimmed fields, a blank phone dropped).
 */
import { limits } from "@org/webinar-types";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export interface Vector {
  description: string;
  body?: Json;
  rawBody?: string;
  rawBodyHex?: string;
  valid: boolean;
  code: "REQUEST_INVALID" | "WATCH_REQUEST_INVALID" | null;
  pointer?: string;
  normalized?: Json;
}

const ok = (description: string, body: Json, normalized?: Json): Vector =>
  normalized === undefined ? { description, body, valid: true, code: null } : { description, body, valid: true, code: null, normalized };
const invalid = (description: string, body: Json, pointer: string): Vector => ({ description, body, valid: false, code: "REQUEST_INVALID", pointer });
const watchInvalid = (description: string, body: Json, pointer: string): Vector => ({ description, body, valid: false, code: "WATCH_REQUEST_INVALID", pointer });
const raw = (description: string, rawBody: string): Vector => ({ description, rawBody, valid: false, code: "REQUEST_INVALID", pointer: "" });

const ID_MAX = limits.externalUserIdMaxLength;
const NAME_MAX = limits.displayNameMaxLength;
const IDS_MAX = limits.maxCombinedIds;
const CURSOR_MAX = limits.cursorMaxLength;
const EMOJI = "🐼"; // one code point, two UTF-16 units, four UTF-8 bytes
const ticketCode = "WBN8K2QX";

/** Body shapes shared by several operations. */
const bodyShapeVectors = (valid: Json): Vector[] => [
  raw("§2.6 the body must hold exactly one JSON object: an empty body -> REQUEST_INVALID", ""),
  raw("§2.6 the body must be JSON: text that is not JSON -> REQUEST_INVALID", "externalUserId=crm-000123"),
  raw("§2.6 exactly one JSON object: two concatenated objects -> REQUEST_INVALID", `${JSON.stringify(valid)}${JSON.stringify(valid)}`),
  raw("§2.6 the body is JSON: a trailing comma -> REQUEST_INVALID", `${JSON.stringify(valid).slice(0, -1)},}`),
  raw("§4 UTF-8 JSON without a byte order mark: a leading BOM -> REQUEST_INVALID", `\uFEFF${JSON.stringify(valid)}`),
  { description: "§4 a UTF-8 body: bytes that are not UTF-8 -> REQUEST_INVALID", rawBodyHex: `7b22${"ff".repeat(2)}223a317d`, valid: false, code: "REQUEST_INVALID", pointer: "" },
  invalid("§2.6 the body must hold one JSON object: an array -> REQUEST_INVALID", [valid], ""),
  invalid("§2.6 the body must hold one JSON object: a string -> REQUEST_INVALID", "x", ""),
  invalid("§2.6 the body must hold one JSON object: null -> REQUEST_INVALID", null, ""),
  invalid("§2.6 the body must hold one JSON object: a number -> REQUEST_INVALID", 1, ""),
  { description: "§2.6 JSON white space around the object is allowed", rawBody: `\n ${JSON.stringify(valid)} \n`, valid: true, code: null, normalized: valid },
];

const upsertViewer: Vector[] = [
  ok("§4.3 only externalUserId sent -> valid (create or return the viewer)", { externalUserId: "crm-000123" }),
  ok("§4.3 externalUserId, phone and displayName -> valid", { externalUserId: "crm-000123", phone: "13800138000", displayName: "张三" }),
  invalid("§4.3 externalUserId is required -> REQUEST_INVALID", { phone: "13800138000" }, "/externalUserId"),
  invalid("§4.3 externalUserId is a string: a number -> REQUEST_INVALID", { externalUserId: 123 }, "/externalUserId"),
  invalid("§4.3 externalUserId is a string: null -> REQUEST_INVALID", { externalUserId: null }, "/externalUserId"),
  invalid("§4.3 externalUserId non-empty: empty string -> REQUEST_INVALID", { externalUserId: "" }, "/externalUserId"),
  invalid("§4.3 externalUserId trimmed then non-empty: white space only -> REQUEST_INVALID", { externalUserId: " \t\n " }, "/externalUserId"),
  invalid("§4.3 externalUserId trimmed then non-empty: ideographic space only (U+3000) -> REQUEST_INVALID", { externalUserId: "\u3000" }, "/externalUserId"),
  ok("§4.3 externalUserId is trimmed: leading and trailing white space removed", { externalUserId: "  crm-000123\t" }, { externalUserId: "crm-000123" }),
  ok("§4.3 externalUserId is case-sensitive and keeps inner white space", { externalUserId: "CRM 000123" }),
  ok(`§4.3 §8 externalUserId of ${ID_MAX} characters -> valid`, { externalUserId: "a".repeat(ID_MAX) }),
  invalid(`§4.3 §8 externalUserId of ${ID_MAX + 1} characters -> REQUEST_INVALID`, { externalUserId: "a".repeat(ID_MAX + 1) }, "/externalUserId"),
  ok(`§4.3 §8 externalUserId of ${ID_MAX} Unicode characters (code points, not UTF-16 units) -> valid`, { externalUserId: EMOJI.repeat(ID_MAX) }),
  invalid(`§4.3 §8 externalUserId of ${ID_MAX + 1} Unicode characters -> REQUEST_INVALID`, { externalUserId: EMOJI.repeat(ID_MAX + 1) }, "/externalUserId"),
  ok(
    `§4.3 externalUserId length is counted after trimming: ${ID_MAX} characters padded with spaces -> valid`,
    { externalUserId: ` ${"b".repeat(ID_MAX)}  ` },
    { externalUserId: "b".repeat(ID_MAX) },
  ),
  ok("§4.3 phone: 1, then 3-9, then 9 digits -> valid", { externalUserId: "crm-000123", phone: "19912345678" }),
  invalid("§4.3 phone: second digit 2 -> REQUEST_INVALID", { externalUserId: "crm-000123", phone: "12800138000" }, "/phone"),
  invalid("§4.3 phone: first digit not 1 -> REQUEST_INVALID", { externalUserId: "crm-000123", phone: "23800138000" }, "/phone"),
  invalid("§4.3 phone: 10 digits -> REQUEST_INVALID", { externalUserId: "crm-000123", phone: "1380013800" }, "/phone"),
  invalid("§4.3 phone: 12 digits -> REQUEST_INVALID", { externalUserId: "crm-000123", phone: "138001380000" }, "/phone"),
  invalid("§4.3 phone: country code +86 -> REQUEST_INVALID", { externalUserId: "crm-000123", phone: "+8613800138000" }, "/phone"),
  invalid("§4.3 phone: digits with separators -> REQUEST_INVALID", { externalUserId: "crm-000123", phone: "138-0013-8000" }, "/phone"),
  invalid("§4.3 phone: surrounding white space is not part of the format -> REQUEST_INVALID", { externalUserId: "crm-000123", phone: " 13800138000 " }, "/phone"),
  invalid("§4.3 phone is a string: a number -> REQUEST_INVALID", { externalUserId: "crm-000123", phone: 13800138000 }, "/phone"),
  invalid("§4.3 phone null -> REQUEST_INVALID (a bound phone cannot be cleared)", { externalUserId: "crm-000123", phone: null }, "/phone"),
  ok("§4.3 phone empty keeps the old value -> valid", { externalUserId: "crm-000123", phone: "" }, { externalUserId: "crm-000123" }),
  ok("§4.3 phone whitespace-only keeps the old value -> valid", { externalUserId: "crm-000123", phone: "   " }, { externalUserId: "crm-000123" }),
  ok("§4.3 displayName null clears the name -> valid", { externalUserId: "crm-000123", displayName: null }),
  ok("§4.3 displayName is trimmed", { externalUserId: "crm-000123", displayName: "  Alice Chen " }, { externalUserId: "crm-000123", displayName: "Alice Chen" }),
  invalid("§4.3 displayName non-empty: empty string -> REQUEST_INVALID", { externalUserId: "crm-000123", displayName: "" }, "/displayName"),
  invalid("§4.3 displayName trimmed then non-empty: white space only -> REQUEST_INVALID", { externalUserId: "crm-000123", displayName: "   " }, "/displayName"),
  ok(`§4.3 §8 displayName of ${NAME_MAX} characters -> valid`, { externalUserId: "crm-000123", displayName: "n".repeat(NAME_MAX) }),
  invalid(`§4.3 §8 displayName of ${NAME_MAX + 1} characters -> REQUEST_INVALID`, { externalUserId: "crm-000123", displayName: "n".repeat(NAME_MAX + 1) }, "/displayName"),
  ok(`§4.3 §8 displayName of ${NAME_MAX} Unicode characters (emoji) -> valid`, { externalUserId: "crm-000123", displayName: EMOJI.repeat(NAME_MAX) }),
  invalid(`§4.3 §8 displayName of ${NAME_MAX + 1} Unicode characters (emoji) -> REQUEST_INVALID`, { externalUserId: "crm-000123", displayName: EMOJI.repeat(NAME_MAX + 1) }, "/displayName"),
  ok(
    `§4.3 displayName length is counted after trimming: ${NAME_MAX} characters padded with spaces -> valid`,
    { externalUserId: "crm-000123", displayName: `  ${"張".repeat(NAME_MAX)} ` },
    { externalUserId: "crm-000123", displayName: "張".repeat(NAME_MAX) },
  ),
  invalid("§4.3 displayName no line breaks: LF inside -> REQUEST_INVALID", { externalUserId: "crm-000123", displayName: "Alice\nChen" }, "/displayName"),
  invalid("§4.3 displayName no line breaks: CR inside -> REQUEST_INVALID", { externalUserId: "crm-000123", displayName: "Alice\rChen" }, "/displayName"),
  invalid("§4.3 displayName no line breaks: U+2028 inside -> REQUEST_INVALID", { externalUserId: "crm-000123", displayName: "Alice\u2028Chen" }, "/displayName"),
  invalid("§4.3 displayName no control characters: TAB inside -> REQUEST_INVALID", { externalUserId: "crm-000123", displayName: "Alice\tChen" }, "/displayName"),
  invalid("§4.3 displayName no control characters: NUL inside -> REQUEST_INVALID", { externalUserId: "crm-000123", displayName: "Alice\u0000Chen" }, "/displayName"),
  invalid("§4.3 displayName no control characters: DEL (U+007F) inside -> REQUEST_INVALID", { externalUserId: "crm-000123", displayName: "Alice\u007fChen" }, "/displayName"),
  invalid("§4.3 displayName no control characters: NEL (U+0085, a C1 control) inside -> REQUEST_INVALID", { externalUserId: "crm-000123", displayName: "Alice\u0085Chen" }, "/displayName"),
  ok("§4.3 displayName is trimmed first: a leading line feed is removed, not rejected", { externalUserId: "crm-000123", displayName: "\nAlice" }, { externalUserId: "crm-000123", displayName: "Alice" }),
  invalid("§4.3 displayName is a string or null: a number -> REQUEST_INVALID", { externalUserId: "crm-000123", displayName: 42 }, "/displayName"),
  invalid("§4.3 displayName is a string or null: an object -> REQUEST_INVALID", { externalUserId: "crm-000123", displayName: { text: "x" } }, "/displayName"),
  invalid("§2.6 unknown fields are rejected: uid -> REQUEST_INVALID", { externalUserId: "crm-000123", uid: 10001 }, "/uid"),
  invalid("§2.6 field names are case-sensitive: ExternalUserId is unknown (and externalUserId missing) -> REQUEST_INVALID", { ExternalUserId: "crm-000123" }, "/ExternalUserId"),
  { description: "§2.6 unknown fields are rejected: __proto__ -> REQUEST_INVALID", rawBody: '{"externalUserId":"crm-000123","__proto__":{"admin":true}}', valid: false, code: "REQUEST_INVALID", pointer: "/__proto__" },
  ...bodyShapeVectors({ externalUserId: "crm-000123" }),
];

const issueLoginTicket: Vector[] = [
  ok("§4.4 uid and ticketCode -> valid", { uid: 4821937, ticketCode: "wbn-7Hq2kP9x" }),
  ok(`§4.4 §8 uid at the lower bound ${limits.uidMin} -> valid`, { uid: limits.uidMin, ticketCode }),
  ok(`§4.4 §8 uid at the upper bound ${limits.uidMax} -> valid`, { uid: limits.uidMax, ticketCode }),
  invalid(`§4.4 §8 uid ${limits.uidMin - 1} below the range -> REQUEST_INVALID`, { uid: limits.uidMin - 1, ticketCode }, "/uid"),
  invalid(`§4.4 §8 uid ${limits.uidMax + 1} above the range -> REQUEST_INVALID`, { uid: limits.uidMax + 1, ticketCode }, "/uid"),
  invalid("§4.4 §2.6 uid is a non-negative integer: negative -> REQUEST_INVALID", { uid: -10001, ticketCode }, "/uid"),
  invalid("§4.4 uid is an integer: a fraction -> REQUEST_INVALID", { uid: 10000.5, ticketCode }, "/uid"),
  invalid("§1 uid is a JSON number: a numeric string -> REQUEST_INVALID", { uid: "10001", ticketCode }, "/uid"),
  invalid("§4.4 uid is required -> REQUEST_INVALID", { ticketCode }, "/uid"),
  invalid("§4.4 uid null -> REQUEST_INVALID", { uid: null, ticketCode }, "/uid"),
  { description: "§2.6 integer means a JSON number value: 1e4 is 10000 -> valid", rawBody: `{"uid":1e4,"ticketCode":"${ticketCode}"}`, valid: true, code: null, normalized: { uid: 10000, ticketCode } },
  { description: "§2.6 integer means a JSON number value: 10001.0 is 10001 -> valid", rawBody: `{"uid":10001.0,"ticketCode":"${ticketCode}"}`, valid: true, code: null, normalized: { uid: 10001, ticketCode } },
  invalid("§4.4 ticketCode is required -> REQUEST_INVALID", { uid: 10001 }, "/ticketCode"),
  invalid("§4.4 ticketCode (webinar public code): empty -> REQUEST_INVALID", { uid: 10001, ticketCode: "" }, "/ticketCode"),
  ok("§4.4 ticketCode of 64 characters (letters, digits, _ and -) -> valid", { uid: 10001, ticketCode: `A_-9${"x".repeat(60)}` }),
  invalid("§4.4 ticketCode of 65 characters -> REQUEST_INVALID", { uid: 10001, ticketCode: "x".repeat(65) }, "/ticketCode"),
  invalid("§4.4 ticketCode with a space -> REQUEST_INVALID", { uid: 10001, ticketCode: "wbn 7Hq2" }, "/ticketCode"),
  invalid("§4.4 ticketCode is the code, not the watch link -> REQUEST_INVALID", { uid: 10001, ticketCode: "/w/wbn-7Hq2kP9x" }, "/ticketCode"),
  invalid("§4.4 ticketCode is a string: a number -> REQUEST_INVALID", { uid: 10001, ticketCode: 12345 }, "/ticketCode"),
  invalid("§2.6 unknown fields are rejected: externalUserId -> REQUEST_INVALID", { uid: 10001, ticketCode, externalUserId: "crm-000123" }, "/externalUserId"),
  ...bodyShapeVectors({ uid: 10001, ticketCode }),
];

const getWatchOverview: Vector[] = [
  ok("§4.5 playbackMode ALL -> valid", { ticketCode, playbackMode: "ALL" }),
  ok("§4.5 playbackMode LIVE -> valid", { ticketCode, playbackMode: "LIVE" }),
  ok("§4.5 playbackMode REPLAY -> valid", { ticketCode, playbackMode: "REPLAY" }),
  invalid("§4.5 playbackMode must be sent explicitly: missing -> REQUEST_INVALID", { ticketCode }, "/playbackMode"),
  invalid("§4.5 playbackMode values are case-sensitive: live -> REQUEST_INVALID", { ticketCode, playbackMode: "live" }, "/playbackMode"),
  invalid("§4.5 playbackMode outside ALL, LIVE, REPLAY -> REQUEST_INVALID", { ticketCode, playbackMode: "BOTH" }, "/playbackMode"),
  invalid("§4.5 playbackMode null -> REQUEST_INVALID", { ticketCode, playbackMode: null }, "/playbackMode"),
  invalid("§4.5 ticketCode is required -> REQUEST_INVALID", { playbackMode: "ALL" }, "/ticketCode"),
  invalid("§4.5 ticketCode with a slash -> REQUEST_INVALID", { ticketCode: "wbn/1", playbackMode: "ALL" }, "/ticketCode"),
  invalid("§4.5 an empty object lacks both fields -> REQUEST_INVALID", {}, "/ticketCode"),
  invalid("§2.6 unknown fields are rejected: sort -> REQUEST_INVALID", { ticketCode, playbackMode: "ALL", sort: "WATCH_SECONDS_DESC" }, "/sort"),
  ...bodyShapeVectors({ ticketCode, playbackMode: "ALL" }),
];

const query = { ticketCode, playbackMode: "LIVE", sort: "WATCH_SECONDS_DESC", pageSize: 50 } as const;
const uids = (count: number, first: number = limits.uidMin) => Array.from({ length: count }, (_, index) => first + index);
const externalIds = (count: number) => Array.from({ length: count }, (_, index) => `crm-${String(index).padStart(6, "0")}`);

const queryViewerWatch: Vector[] = [
  ok("§4.6 required fields only -> valid (every registered viewer of the webinar)", { ...query }),
  ok("§4.6 every field -> valid", { ...query, uids: [4821937, 4821938], externalUserIds: ["crm-000123"], minWatchSeconds: 600, cursor: "c1.eyJrIjoiV0FUQ0hfU0VDT05EU19ERVNDIn0.5f1d0a" }),
  ...(["ticketCode", "playbackMode", "sort", "pageSize"] as const).map((field) => {
    const { [field]: _omitted, ...rest } = query;
    return invalid(`§4.6 ${field} is required (no applied default) -> REQUEST_INVALID`, rest, `/${field}`);
  }),
  ok("§4.6 playbackMode REPLAY -> valid", { ...query, playbackMode: "REPLAY" }),
  invalid("§4.6 playbackMode outside ALL, LIVE, REPLAY -> REQUEST_INVALID", { ...query, playbackMode: "VOD" }, "/playbackMode"),
  ok("§4.6 sort LAST_WATCHED_DESC -> valid", { ...query, sort: "LAST_WATCHED_DESC" }),
  ok("§4.6 sort FIRST_WATCHED_ASC -> valid", { ...query, sort: "FIRST_WATCHED_ASC" }),
  invalid("§4.6 sort outside the three orders -> REQUEST_INVALID", { ...query, sort: "WATCH_SECONDS_ASC" }, "/sort"),
  ok(`§4.6 §8 pageSize ${limits.pageSizeMin} -> valid`, { ...query, pageSize: limits.pageSizeMin }),
  ok(`§4.6 §8 pageSize ${limits.pageSizeMax} -> valid`, { ...query, pageSize: limits.pageSizeMax }),
  invalid(`§4.6 §8 pageSize ${limits.pageSizeMin - 1} -> REQUEST_INVALID`, { ...query, pageSize: limits.pageSizeMin - 1 }, "/pageSize"),
  invalid(`§4.6 §8 pageSize ${limits.pageSizeMax + 1} -> REQUEST_INVALID`, { ...query, pageSize: limits.pageSizeMax + 1 }, "/pageSize"),
  invalid("§4.6 pageSize is an integer: 10.5 -> REQUEST_INVALID", { ...query, pageSize: 10.5 }, "/pageSize"),
  invalid("§4.6 pageSize is a number: a numeric string -> REQUEST_INVALID", { ...query, pageSize: "10" }, "/pageSize"),
  ok("§4.6 uids of valid UIDs -> valid", { ...query, uids: [limits.uidMin, limits.uidMax] }),
  ok("§4.6 empty uids -> valid", { ...query, uids: [] }),
  invalid(`§4.6 each uid ${limits.uidMin}-${limits.uidMax}: ${limits.uidMin - 1} -> REQUEST_INVALID`, { ...query, uids: [10001, limits.uidMin - 1] }, "/uids/1"),
  invalid("§4.6 each uid is an integer: a numeric string -> REQUEST_INVALID", { ...query, uids: ["10001"] }, "/uids/0"),
  invalid("§4.6 uids is a list: a single number -> REQUEST_INVALID", { ...query, uids: 10001 }, "/uids"),
  ok(`§4.6 §8 ${IDS_MAX} uids -> valid`, { ...query, uids: uids(IDS_MAX) }),
  watchInvalid(`§4.6 §8 ${IDS_MAX + 1} uids -> WATCH_REQUEST_INVALID`, { ...query, uids: uids(IDS_MAX + 1) }, "/uids"),
  ok(`§4.6 duplicates count: the same uid ${IDS_MAX} times -> valid`, { ...query, uids: Array<number>(IDS_MAX).fill(10001) }),
  watchInvalid(`§4.6 duplicates count: the same uid ${IDS_MAX + 1} times -> WATCH_REQUEST_INVALID`, { ...query, uids: Array<number>(IDS_MAX + 1).fill(10001) }, "/uids"),
  ok(`§4.6 §8 ${IDS_MAX} externalUserIds -> valid`, { ...query, externalUserIds: externalIds(IDS_MAX) }),
  watchInvalid(`§4.6 §8 ${IDS_MAX + 1} externalUserIds -> WATCH_REQUEST_INVALID`, { ...query, externalUserIds: externalIds(IDS_MAX + 1) }, "/externalUserIds"),
  ok(`§4.6 §8 uids and externalUserIds combined ${IDS_MAX} -> valid`, { ...query, uids: uids(IDS_MAX / 2), externalUserIds: externalIds(IDS_MAX / 2) }),
  watchInvalid(
    `§4.6 §8 uids and externalUserIds combined ${IDS_MAX + 1} -> WATCH_REQUEST_INVALID`,
    { ...query, uids: uids(IDS_MAX / 2), externalUserIds: externalIds(IDS_MAX / 2 + 1) },
    "",
  ),
  watchInvalid(
    `§4.6 duplicates count toward the combined ${IDS_MAX}: ${IDS_MAX - 1} copies of one uid and 2 copies of one id -> WATCH_REQUEST_INVALID`,
    { ...query, uids: Array<number>(IDS_MAX - 1).fill(10001), externalUserIds: ["crm-000123", "crm-000123"] },
    "",
  ),
  ok(`§4.6 §8 externalUserIds entry of ${ID_MAX} characters -> valid`, { ...query, externalUserIds: ["e".repeat(ID_MAX)] }),
  invalid(`§4.6 §8 externalUserIds entry of ${ID_MAX + 1} characters -> REQUEST_INVALID`, { ...query, externalUserIds: ["e".repeat(ID_MAX + 1)] }, "/externalUserIds/0"),
  ok(`§4.6 §8 externalUserIds entry of ${ID_MAX} Unicode characters (emoji) -> valid`, { ...query, externalUserIds: [EMOJI.repeat(ID_MAX)] }),
  invalid("§4.6 externalUserIds entry empty -> REQUEST_INVALID", { ...query, externalUserIds: [""] }, "/externalUserIds/0"),
  invalid("§4.6 externalUserIds entries are strings: a number -> REQUEST_INVALID", { ...query, externalUserIds: [123] }, "/externalUserIds/0"),
  ok("§4.6 minWatchSeconds 0 means no lower bound -> valid", { ...query, minWatchSeconds: 0 }),
  ok("§4.6 minWatchSeconds 600 -> valid", { ...query, minWatchSeconds: 600 }),
  invalid("§4.6 §2.6 minWatchSeconds is a non-negative integer: -1 -> REQUEST_INVALID", { ...query, minWatchSeconds: -1 }, "/minWatchSeconds"),
  invalid("§4.6 minWatchSeconds is an integer: 1.5 -> REQUEST_INVALID", { ...query, minWatchSeconds: 1.5 }, "/minWatchSeconds"),
  invalid("§4.6 minWatchSeconds null -> REQUEST_INVALID", { ...query, minWatchSeconds: null }, "/minWatchSeconds"),
  ok(`§4.6 §8 cursor of ${CURSOR_MAX} characters -> valid`, { ...query, cursor: "c".repeat(CURSOR_MAX) }),
  watchInvalid(`§4.6 §8 cursor of ${CURSOR_MAX + 1} characters -> WATCH_REQUEST_INVALID`, { ...query, cursor: "c".repeat(CURSOR_MAX + 1) }, "/cursor"),
  watchInvalid("§4.6 cursor is the previous nextCursor unchanged: an empty cursor matches no query -> WATCH_REQUEST_INVALID", { ...query, cursor: "" }, "/cursor"),
  invalid("§4.6 cursor is a string: a number -> REQUEST_INVALID", { ...query, cursor: 2 }, "/cursor"),
  invalid("§4.6 cursor omitted on the first request, not null -> REQUEST_INVALID", { ...query, cursor: null }, "/cursor"),
  invalid(
    "§4.6 §7.1 a body breaking REQUEST_INVALID and WATCH_REQUEST_INVALID rules (pageSize 0, cursor too long) -> REQUEST_INVALID",
    { ...query, pageSize: 0, cursor: "c".repeat(CURSOR_MAX + 1) },
    "/pageSize",
  ),
  invalid("§4.6 there is no total or page number: page -> REQUEST_INVALID", { ...query, page: 2 }, "/page"),
  ...bodyShapeVectors({ ...query }),
];

/** JSON with two-space indentation, but a list of plain values on one line (300 uids stay readable). */
function format(value: Json, indent = ""): string {
  if (Array.isArray(value)) {
    if (value.every((item) => item === null || typeof item !== "object")) return `[${value.map((item) => JSON.stringify(item)).join(", ")}]`;
    const inner = `${indent}  `;
    return `[\n${value.map((item) => `${inner}${format(item, inner)}`).join(",\n")}\n${indent}]`;
  }
  if (value !== null && typeof value === "object") {
    const inner = `${indent}  `;
    const entries = Object.entries(value).map(([key, item]) => `${inner}${JSON.stringify(key)}: ${format(item, inner)}`);
    return entries.length === 0 ? "{}" : `{\n${entries.join(",\n")}\n${indent}}`;
  }
  return JSON.stringify(value);
}

/** Every operation's vectors, as the text of its JSON file. */
export function renderRequestVectors(): Record<string, string> {
  const files: Record<string, string> = {};
  for (const [operationId, vectors] of Object.entries({ upsertViewer, issueLoginTicket, getWatchOverview, queryViewerWatch })) {
    files[operationId] = `${format(vectors as unknown as Json)}\n`;
  }
  return files;
}

/** spec/test-vectors/requests/ */
export const requestVectorsFolder = new URL("../../../spec/test-vectors/requests/", import.meta.url);
