/**
 * Writes spec/test-vectors/requests/<operationId>.json: the request-body rules of spec/openapi.yaml (each
 * operation's request schema and description, the Conventions of the document's description, the Limits guide)
 * as language-neutral vectors, positive and negative, each description naming its rule. The expectations are
 * written here by hand from the spec text; this script only expands long values (191-character ids, 300-item
 * lists, every forbidden character in every text field) that nobody should type.
 * `scripts/write-request-vectors.ts` writes the files; a test fails when they differ
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
  normalized === undefined
    ? { description, body, valid: true, code: null }
    : { description, body, valid: true, code: null, normalized };
const invalid = (description: string, body: Json, pointer: string): Vector => ({
  description,
  body,
  valid: false,
  code: "REQUEST_INVALID",
  pointer,
});
const watchInvalid = (description: string, body: Json, pointer: string): Vector => ({
  description,
  body,
  valid: false,
  code: "WATCH_REQUEST_INVALID",
  pointer,
});
const rawInvalid = (description: string, rawBody: string, pointer = ""): Vector => ({
  description,
  rawBody,
  valid: false,
  code: "REQUEST_INVALID",
  pointer,
});
const rawValid = (description: string, rawBody: string, normalized: Json): Vector => ({
  description,
  rawBody,
  valid: true,
  code: null,
  normalized,
});

const ID_MAX = limits.externalUserIdMaxLength;
const NAME_MAX = limits.displayNameMaxLength;
const IDS_MAX = limits.maxCombinedIds;
const CURSOR_MAX = limits.cursorMaxLength;
const EMOJI = "🐼"; // one code point, two UTF-16 units, four UTF-8 bytes
const ticketCode = "WBN8K2QX";
const INTEGER_MAX = limits.integerMax; // 2^53 - 1

/**
 * The characters no string of a request may hold (Conventions: Unicode Cc, U+2028, U+2029, lone surrogates),
 * each put inside a value, where trimming cannot remove it. JSON files keep them as escapes or raw characters.
 */
const FORBIDDEN_CHARACTERS: ReadonlyArray<readonly [name: string, text: string]> = [
  ["NUL (U+0000)", "\u0000"],
  ["a C0 control (U+001F)", "\u001f"],
  ["TAB (U+0009, a C0 control)", "\t"],
  ["LF (U+000A)", "\n"],
  ["CR (U+000D)", "\r"],
  ["DEL (U+007F)", "\u007f"],
  ["NEL (U+0085, a C1 control)", "\u0085"],
  ["a C1 control (U+009F)", "\u009f"],
  ["LINE SEPARATOR (U+2028)", "\u2028"],
  ["PARAGRAPH SEPARATOR (U+2029)", "\u2029"],
  ["a lone high surrogate (\\ud800)", "\ud800"],
  ["a lone low surrogate (\\udc00)", "\udc00"],
  ["a surrogate pair in reverse order (\\udc3c\\ud83d)", "\udc3c\ud83d"],
];

/** Characters next to the forbidden ones that every text field still accepts. */
const ACCEPTED_CHARACTERS: ReadonlyArray<readonly [name: string, text: string]> = [
  ["an emoji (a complete surrogate pair)", EMOJI],
  ["a zero-width joiner sequence (format characters are allowed)", "👩\u200d💻"],
  ["a no-break space (U+00A0)", "\u00a0"],
];

/**
 * Conventions, every string is text: each forbidden character inside the value `around(character)` of `field`
 * -> `code` at `pointer`, and the accepted characters -> valid.
 */
function textVectors(
  field: string,
  body: (text: string) => Json,
  pointer: string,
  code: NonNullable<Vector["code"]> = "REQUEST_INVALID",
): Vector[] {
  return [
    ...FORBIDDEN_CHARACTERS.map(
      ([name, text]): Vector => ({
        description: `Conventions: text has no control characters, line separators or lone surrogates: ${name} inside ${field} -> ${code}`,
        body: body(text),
        valid: false,
        code,
        pointer,
      }),
    ),
    ...ACCEPTED_CHARACTERS.map(([name, text]) =>
      ok(`Conventions: text may hold ${name}: inside ${field} -> valid`, body(text)),
    ),
  ];
}

const NUMBER = "<number>";
/** The JSON text of `body` with the string NUMBER written as the number `literal` (`1e19`, `1.0e2`), which a parsed body cannot keep. */
const withNumber = (body: Json, literal: string) => JSON.stringify(body).replace(JSON.stringify(NUMBER), literal);

/**
 * Conventions, an integer is judged by its JSON value and every integer has a maximum: `field` (placed by
 * `body`) as `1e19`, as 2^53, and as a number too large to be finite -> REQUEST_INVALID at `pointer`.
 */
function integerVectors(field: string, body: Json, pointer: string): Vector[] {
  const rule = `Conventions: an integer is judged by its JSON value and has a maximum: ${field}`;
  return [
    rawInvalid(`${rule} 1e19 -> REQUEST_INVALID`, withNumber(body, "1e19"), pointer),
    rawInvalid(`${rule} 9007199254740992 (2^53) -> REQUEST_INVALID`, withNumber(body, "9007199254740992"), pointer),
    rawInvalid(`${rule} 1e400 (no finite number) -> REQUEST_INVALID`, withNumber(body, "1e400"), pointer),
  ];
}

/** Body shapes shared by several operations. */
const bodyShapeVectors = (valid: Json): Vector[] => [
  rawInvalid("Conventions: the body must hold exactly one JSON object: an empty body -> REQUEST_INVALID", ""),
  rawInvalid(
    "Conventions: the body must be JSON: text that is not JSON -> REQUEST_INVALID",
    "externalUserId=crm-000123",
  ),
  rawInvalid(
    "Conventions: exactly one JSON object: two concatenated objects -> REQUEST_INVALID",
    `${JSON.stringify(valid)}${JSON.stringify(valid)}`,
  ),
  rawInvalid(
    "Conventions: the body is JSON: a trailing comma -> REQUEST_INVALID",
    `${JSON.stringify(valid).slice(0, -1)},}`,
  ),
  rawInvalid(
    "Conventions: UTF-8 JSON without a byte order mark: a leading BOM -> REQUEST_INVALID",
    `\uFEFF${JSON.stringify(valid)}`,
  ),
  {
    description: "Conventions: a UTF-8 body: bytes that are not UTF-8 -> REQUEST_INVALID",
    rawBodyHex: `7b22${"ff".repeat(2)}223a317d`,
    valid: false,
    code: "REQUEST_INVALID",
    pointer: "",
  },
  invalid("Conventions: the body must hold one JSON object: an array -> REQUEST_INVALID", [valid], ""),
  invalid("Conventions: the body must hold one JSON object: a string -> REQUEST_INVALID", "x", ""),
  invalid("Conventions: the body must hold one JSON object: null -> REQUEST_INVALID", null, ""),
  invalid("Conventions: the body must hold one JSON object: a number -> REQUEST_INVALID", 1, ""),
  {
    description: "Conventions: JSON white space around the object is allowed",
    rawBody: `\n ${JSON.stringify(valid)} \n`,
    valid: true,
    code: null,
    normalized: valid,
  },
];

const upsertViewer: Vector[] = [
  ok("only externalUserId sent -> valid (create or return the viewer)", { externalUserId: "crm-000123" }),
  ok("externalUserId, phone and displayName -> valid", {
    externalUserId: "crm-000123",
    phone: "13800138000",
    displayName: "张三",
  }),
  invalid("externalUserId is required -> REQUEST_INVALID", { phone: "13800138000" }, "/externalUserId"),
  invalid("externalUserId is a string: a number -> REQUEST_INVALID", { externalUserId: 123 }, "/externalUserId"),
  invalid("externalUserId is a string: null -> REQUEST_INVALID", { externalUserId: null }, "/externalUserId"),
  invalid("externalUserId non-empty: empty string -> REQUEST_INVALID", { externalUserId: "" }, "/externalUserId"),
  invalid(
    "externalUserId trimmed then non-empty: white space only -> REQUEST_INVALID",
    { externalUserId: " \t\n " },
    "/externalUserId",
  ),
  invalid(
    "externalUserId trimmed then non-empty: ideographic space only (U+3000) -> REQUEST_INVALID",
    { externalUserId: "\u3000" },
    "/externalUserId",
  ),
  ok(
    "externalUserId is trimmed: leading and trailing white space removed",
    { externalUserId: "  crm-000123\t" },
    { externalUserId: "crm-000123" },
  ),
  ok("externalUserId is case-sensitive and keeps inner white space", { externalUserId: "CRM 000123" }),
  ok(`Limits: externalUserId of ${ID_MAX} characters -> valid`, { externalUserId: "a".repeat(ID_MAX) }),
  invalid(
    `Limits: externalUserId of ${ID_MAX + 1} characters -> REQUEST_INVALID`,
    { externalUserId: "a".repeat(ID_MAX + 1) },
    "/externalUserId",
  ),
  ok(`Limits: externalUserId of ${ID_MAX} Unicode characters (code points, not UTF-16 units) -> valid`, {
    externalUserId: EMOJI.repeat(ID_MAX),
  }),
  invalid(
    `Limits: externalUserId of ${ID_MAX + 1} Unicode characters -> REQUEST_INVALID`,
    { externalUserId: EMOJI.repeat(ID_MAX + 1) },
    "/externalUserId",
  ),
  ok(
    `externalUserId length is counted after trimming: ${ID_MAX} characters padded with spaces -> valid`,
    { externalUserId: ` ${"b".repeat(ID_MAX)}  ` },
    { externalUserId: "b".repeat(ID_MAX) },
  ),
  ...textVectors("externalUserId", (text) => ({ externalUserId: `crm${text}000123` }), "/externalUserId"),
  invalid(
    "externalUserId is trimmed, then judged: a NUL at the end is no white space and stays -> REQUEST_INVALID",
    { externalUserId: "crm-000123\u0000" },
    "/externalUserId",
  ),
  ok("phone: 1, then 3-9, then 9 digits -> valid", { externalUserId: "crm-000123", phone: "19912345678" }),
  invalid("phone: second digit 2 -> REQUEST_INVALID", { externalUserId: "crm-000123", phone: "12800138000" }, "/phone"),
  invalid(
    "phone: first digit not 1 -> REQUEST_INVALID",
    { externalUserId: "crm-000123", phone: "23800138000" },
    "/phone",
  ),
  invalid("phone: 10 digits -> REQUEST_INVALID", { externalUserId: "crm-000123", phone: "1380013800" }, "/phone"),
  invalid("phone: 12 digits -> REQUEST_INVALID", { externalUserId: "crm-000123", phone: "138001380000" }, "/phone"),
  invalid(
    "phone: country code +86 -> REQUEST_INVALID",
    { externalUserId: "crm-000123", phone: "+8613800138000" },
    "/phone",
  ),
  invalid(
    "phone: digits with separators -> REQUEST_INVALID",
    { externalUserId: "crm-000123", phone: "138-0013-8000" },
    "/phone",
  ),
  invalid(
    "phone: surrounding white space is not part of the format -> REQUEST_INVALID",
    { externalUserId: "crm-000123", phone: " 13800138000 " },
    "/phone",
  ),
  invalid(
    "phone: a line feed at the end is not part of the format -> REQUEST_INVALID",
    { externalUserId: "crm-000123", phone: "13800138000\n" },
    "/phone",
  ),
  invalid(
    "phone is a string: a number -> REQUEST_INVALID",
    { externalUserId: "crm-000123", phone: 13800138000 },
    "/phone",
  ),
  invalid(
    "phone null -> REQUEST_INVALID (a bound phone cannot be cleared)",
    { externalUserId: "crm-000123", phone: null },
    "/phone",
  ),
  ok(
    "phone empty keeps the old value -> valid",
    { externalUserId: "crm-000123", phone: "" },
    { externalUserId: "crm-000123" },
  ),
  ok(
    "phone whitespace-only keeps the old value -> valid",
    { externalUserId: "crm-000123", phone: "   " },
    { externalUserId: "crm-000123" },
  ),
  ok(
    "phone of ideographic and no-break spaces keeps the old value -> valid",
    { externalUserId: "crm-000123", phone: "\u3000\u00a0" },
    { externalUserId: "crm-000123" },
  ),
  ...FORBIDDEN_CHARACTERS.map(([name, text]) =>
    invalid(
      `Conventions: text has no control characters, line separators or lone surrogates: phone of ${name} is not blank -> REQUEST_INVALID`,
      { externalUserId: "crm-000123", phone: ` ${text} ` },
      "/phone",
    ),
  ),
  invalid(
    "Conventions: text has no lone surrogates: phone digits followed by \\udc00 -> REQUEST_INVALID",
    { externalUserId: "crm-000123", phone: "13800138000\udc00" },
    "/phone",
  ),
  ok("displayName null clears the name -> valid", { externalUserId: "crm-000123", displayName: null }),
  ok(
    "displayName is trimmed",
    { externalUserId: "crm-000123", displayName: "  Alice Chen " },
    { externalUserId: "crm-000123", displayName: "Alice Chen" },
  ),
  invalid(
    "displayName non-empty: empty string -> REQUEST_INVALID",
    { externalUserId: "crm-000123", displayName: "" },
    "/displayName",
  ),
  invalid(
    "displayName trimmed then non-empty: white space only -> REQUEST_INVALID",
    { externalUserId: "crm-000123", displayName: "   " },
    "/displayName",
  ),
  ok(`Limits: displayName of ${NAME_MAX} characters -> valid`, {
    externalUserId: "crm-000123",
    displayName: "n".repeat(NAME_MAX),
  }),
  invalid(
    `Limits: displayName of ${NAME_MAX + 1} characters -> REQUEST_INVALID`,
    { externalUserId: "crm-000123", displayName: "n".repeat(NAME_MAX + 1) },
    "/displayName",
  ),
  ok(`Limits: displayName of ${NAME_MAX} Unicode characters (emoji) -> valid`, {
    externalUserId: "crm-000123",
    displayName: EMOJI.repeat(NAME_MAX),
  }),
  invalid(
    `Limits: displayName of ${NAME_MAX + 1} Unicode characters (emoji) -> REQUEST_INVALID`,
    { externalUserId: "crm-000123", displayName: EMOJI.repeat(NAME_MAX + 1) },
    "/displayName",
  ),
  ok(
    `displayName length is counted after trimming: ${NAME_MAX} characters padded with spaces -> valid`,
    { externalUserId: "crm-000123", displayName: `  ${"張".repeat(NAME_MAX)} ` },
    { externalUserId: "crm-000123", displayName: "張".repeat(NAME_MAX) },
  ),
  ...textVectors(
    "displayName",
    (text) => ({ externalUserId: "crm-000123", displayName: `Alice${text}Chen` }),
    "/displayName",
  ),
  invalid(
    "displayName no line breaks: a single U+2029 -> REQUEST_INVALID (it is white space, trimmed to empty)",
    { externalUserId: "crm-000123", displayName: "\u2029" },
    "/displayName",
  ),
  invalid(
    "displayName no control characters: a single NUL -> REQUEST_INVALID",
    { externalUserId: "crm-000123", displayName: "\u0000" },
    "/displayName",
  ),
  ok(
    "displayName is trimmed first: a leading line feed is removed, not rejected",
    { externalUserId: "crm-000123", displayName: "\nAlice" },
    { externalUserId: "crm-000123", displayName: "Alice" },
  ),
  invalid(
    "displayName is a string or null: a number -> REQUEST_INVALID",
    { externalUserId: "crm-000123", displayName: 42 },
    "/displayName",
  ),
  invalid(
    "displayName is a string or null: an object -> REQUEST_INVALID",
    { externalUserId: "crm-000123", displayName: { text: "x" } },
    "/displayName",
  ),
  invalid(
    "Conventions: unknown fields are rejected: uid -> REQUEST_INVALID",
    { externalUserId: "crm-000123", uid: 10001 },
    "/uid",
  ),
  invalid(
    "Conventions: field names are case-sensitive: ExternalUserId is unknown (and externalUserId missing) -> REQUEST_INVALID",
    { ExternalUserId: "crm-000123" },
    "/ExternalUserId",
  ),
  {
    description: "Conventions: unknown fields are rejected: __proto__ -> REQUEST_INVALID",
    rawBody: '{"externalUserId":"crm-000123","__proto__":{"admin":true}}',
    valid: false,
    code: "REQUEST_INVALID",
    pointer: "/__proto__",
  },
  ...bodyShapeVectors({ externalUserId: "crm-000123" }),
];

const issueLoginTicket: Vector[] = [
  ok("uid and ticketCode -> valid", { uid: 4821937, ticketCode: "wbn-7Hq2kP9x" }),
  ok(`Limits: uid at the lower bound ${limits.uidMin} -> valid`, { uid: limits.uidMin, ticketCode }),
  ok(`Limits: uid at the upper bound ${limits.uidMax} -> valid`, { uid: limits.uidMax, ticketCode }),
  invalid(
    `Limits: uid ${limits.uidMin - 1} below the range -> REQUEST_INVALID`,
    { uid: limits.uidMin - 1, ticketCode },
    "/uid",
  ),
  invalid(
    `Limits: uid ${limits.uidMax + 1} above the range -> REQUEST_INVALID`,
    { uid: limits.uidMax + 1, ticketCode },
    "/uid",
  ),
  invalid(
    "Conventions: uid is a non-negative integer: negative -> REQUEST_INVALID",
    { uid: -10001, ticketCode },
    "/uid",
  ),
  invalid("uid is an integer: a fraction -> REQUEST_INVALID", { uid: 10000.5, ticketCode }, "/uid"),
  invalid("uid is a JSON number: a numeric string -> REQUEST_INVALID", { uid: "10001", ticketCode }, "/uid"),
  invalid("uid is required -> REQUEST_INVALID", { ticketCode }, "/uid"),
  invalid("uid null -> REQUEST_INVALID", { uid: null, ticketCode }, "/uid"),
  {
    description: "Conventions: integer means a JSON number value: 1e4 is 10000 -> valid",
    rawBody: `{"uid":1e4,"ticketCode":"${ticketCode}"}`,
    valid: true,
    code: null,
    normalized: { uid: 10000, ticketCode },
  },
  {
    description: "Conventions: integer means a JSON number value: 10001.0 is 10001 -> valid",
    rawBody: `{"uid":10001.0,"ticketCode":"${ticketCode}"}`,
    valid: true,
    code: null,
    normalized: { uid: 10001, ticketCode },
  },
  invalid("ticketCode is required -> REQUEST_INVALID", { uid: 10001 }, "/ticketCode"),
  invalid("ticketCode (webinar public code): empty -> REQUEST_INVALID", { uid: 10001, ticketCode: "" }, "/ticketCode"),
  ok("ticketCode of 64 characters (letters, digits, _ and -) -> valid", {
    uid: 10001,
    ticketCode: `A_-9${"x".repeat(60)}`,
  }),
  invalid("ticketCode of 65 characters -> REQUEST_INVALID", { uid: 10001, ticketCode: "x".repeat(65) }, "/ticketCode"),
  invalid("ticketCode with a space -> REQUEST_INVALID", { uid: 10001, ticketCode: "wbn 7Hq2" }, "/ticketCode"),
  invalid(
    "ticketCode is the code, not the watch link -> REQUEST_INVALID",
    { uid: 10001, ticketCode: "/w/wbn-7Hq2kP9x" },
    "/ticketCode",
  ),
  invalid("ticketCode is a string: a number -> REQUEST_INVALID", { uid: 10001, ticketCode: 12345 }, "/ticketCode"),
  ...integerVectors("uid", { uid: NUMBER, ticketCode }, "/uid"),
  rawValid(
    "Conventions: an integer is judged by its JSON value: uid 1.0e4 is 10000 -> valid",
    withNumber({ uid: NUMBER, ticketCode }, "1.0e4"),
    { uid: 10000, ticketCode },
  ),
  ...FORBIDDEN_CHARACTERS.map(([name, text]) =>
    invalid(
      `ticketCode is letters, digits, _ and -: ${name} inside -> REQUEST_INVALID`,
      { uid: 10001, ticketCode: `WBN${text}8K2QX` },
      "/ticketCode",
    ),
  ),
  invalid(
    "ticketCode is letters, digits, _ and -: an emoji -> REQUEST_INVALID",
    { uid: 10001, ticketCode: `WBN${EMOJI}` },
    "/ticketCode",
  ),
  invalid(
    "Conventions: unknown fields are rejected: externalUserId -> REQUEST_INVALID",
    { uid: 10001, ticketCode, externalUserId: "crm-000123" },
    "/externalUserId",
  ),
  ...bodyShapeVectors({ uid: 10001, ticketCode }),
];

const getWatchOverview: Vector[] = [
  ok("playbackMode ALL -> valid", { ticketCode, playbackMode: "ALL" }),
  ok("playbackMode LIVE -> valid", { ticketCode, playbackMode: "LIVE" }),
  ok("playbackMode REPLAY -> valid", { ticketCode, playbackMode: "REPLAY" }),
  invalid("playbackMode must be sent explicitly: missing -> REQUEST_INVALID", { ticketCode }, "/playbackMode"),
  invalid(
    "playbackMode values are case-sensitive: live -> REQUEST_INVALID",
    { ticketCode, playbackMode: "live" },
    "/playbackMode",
  ),
  invalid(
    "playbackMode outside ALL, LIVE, REPLAY -> REQUEST_INVALID",
    { ticketCode, playbackMode: "BOTH" },
    "/playbackMode",
  ),
  invalid("playbackMode null -> REQUEST_INVALID", { ticketCode, playbackMode: null }, "/playbackMode"),
  invalid("ticketCode is required -> REQUEST_INVALID", { playbackMode: "ALL" }, "/ticketCode"),
  invalid("ticketCode with a slash -> REQUEST_INVALID", { ticketCode: "wbn/1", playbackMode: "ALL" }, "/ticketCode"),
  invalid(
    "ticketCode is letters, digits, _ and -: NUL inside -> REQUEST_INVALID",
    { ticketCode: "WBN\u00008K2QX", playbackMode: "ALL" },
    "/ticketCode",
  ),
  invalid(
    "ticketCode is letters, digits, _ and -: a lone high surrogate (\\ud800) -> REQUEST_INVALID",
    { ticketCode: "WBN\ud800", playbackMode: "ALL" },
    "/ticketCode",
  ),
  invalid(
    "playbackMode is one of the values exactly: LIVE followed by NUL -> REQUEST_INVALID",
    { ticketCode, playbackMode: "LIVE\u0000" },
    "/playbackMode",
  ),
  invalid("an empty object lacks both fields -> REQUEST_INVALID", {}, "/ticketCode"),
  invalid(
    "Conventions: unknown fields are rejected: sort -> REQUEST_INVALID",
    { ticketCode, playbackMode: "ALL", sort: "WATCH_SECONDS_DESC" },
    "/sort",
  ),
  ...bodyShapeVectors({ ticketCode, playbackMode: "ALL" }),
];

const query = { ticketCode, playbackMode: "LIVE", sort: "WATCH_SECONDS_DESC", pageSize: 50 } as const;
const uids = (count: number, first: number = limits.uidMin) =>
  Array.from({ length: count }, (_, index) => first + index);
const externalIds = (count: number) =>
  Array.from({ length: count }, (_, index) => `crm-${String(index).padStart(6, "0")}`);

const queryViewerWatch: Vector[] = [
  ok("required fields only -> valid (every registered viewer of the webinar)", { ...query }),
  ok("every field -> valid", {
    ...query,
    uids: [4821937, 4821938],
    externalUserIds: ["crm-000123"],
    minWatchSeconds: 600,
    cursor: "c1.eyJrIjoiV0FUQ0hfU0VDT05EU19ERVNDIn0.5f1d0a",
  }),
  ...(["ticketCode", "playbackMode", "sort", "pageSize"] as const).map((field) => {
    const { [field]: _omitted, ...rest } = query;
    return invalid(`${field} is required (no applied default) -> REQUEST_INVALID`, rest, `/${field}`);
  }),
  ok("playbackMode REPLAY -> valid", { ...query, playbackMode: "REPLAY" }),
  invalid(
    "playbackMode outside ALL, LIVE, REPLAY -> REQUEST_INVALID",
    { ...query, playbackMode: "VOD" },
    "/playbackMode",
  ),
  ok("sort LAST_WATCHED_DESC -> valid", { ...query, sort: "LAST_WATCHED_DESC" }),
  ok("sort FIRST_WATCHED_ASC -> valid", { ...query, sort: "FIRST_WATCHED_ASC" }),
  invalid("sort outside the three orders -> REQUEST_INVALID", { ...query, sort: "WATCH_SECONDS_ASC" }, "/sort"),
  ok(`Limits: pageSize ${limits.pageSizeMin} -> valid`, { ...query, pageSize: limits.pageSizeMin }),
  ok(`Limits: pageSize ${limits.pageSizeMax} -> valid`, { ...query, pageSize: limits.pageSizeMax }),
  invalid(
    `Limits: pageSize ${limits.pageSizeMin - 1} -> REQUEST_INVALID`,
    { ...query, pageSize: limits.pageSizeMin - 1 },
    "/pageSize",
  ),
  invalid(
    `Limits: pageSize ${limits.pageSizeMax + 1} -> REQUEST_INVALID`,
    { ...query, pageSize: limits.pageSizeMax + 1 },
    "/pageSize",
  ),
  invalid("pageSize is an integer: 10.5 -> REQUEST_INVALID", { ...query, pageSize: 10.5 }, "/pageSize"),
  invalid("pageSize is a number: a numeric string -> REQUEST_INVALID", { ...query, pageSize: "10" }, "/pageSize"),
  ...integerVectors("pageSize", { ...query, pageSize: NUMBER }, "/pageSize"),
  rawValid(
    "Conventions: an integer is judged by its JSON value: pageSize 1.0e2 is 100 -> valid",
    withNumber({ ...query, pageSize: NUMBER }, "1.0e2"),
    { ...query, pageSize: 100 },
  ),
  ok("uids of valid UIDs -> valid", { ...query, uids: [limits.uidMin, limits.uidMax] }),
  ok("empty uids -> valid", { ...query, uids: [] }),
  invalid(
    `each uid ${limits.uidMin}-${limits.uidMax}: ${limits.uidMin - 1} -> REQUEST_INVALID`,
    { ...query, uids: [10001, limits.uidMin - 1] },
    "/uids/1",
  ),
  invalid("each uid is an integer: a numeric string -> REQUEST_INVALID", { ...query, uids: ["10001"] }, "/uids/0"),
  ...integerVectors("a uid of uids", { ...query, uids: [10001, NUMBER] }, "/uids/1"),
  invalid("uids is a list: a single number -> REQUEST_INVALID", { ...query, uids: 10001 }, "/uids"),
  ok(`Limits: ${IDS_MAX} uids -> valid`, { ...query, uids: uids(IDS_MAX) }),
  watchInvalid(`Limits: ${IDS_MAX + 1} uids -> WATCH_REQUEST_INVALID`, { ...query, uids: uids(IDS_MAX + 1) }, "/uids"),
  ok(`duplicates count: the same uid ${IDS_MAX} times -> valid`, {
    ...query,
    uids: Array<number>(IDS_MAX).fill(10001),
  }),
  watchInvalid(
    `duplicates count: the same uid ${IDS_MAX + 1} times -> WATCH_REQUEST_INVALID`,
    { ...query, uids: Array<number>(IDS_MAX + 1).fill(10001) },
    "/uids",
  ),
  ok(`Limits: ${IDS_MAX} externalUserIds -> valid`, { ...query, externalUserIds: externalIds(IDS_MAX) }),
  watchInvalid(
    `Limits: ${IDS_MAX + 1} externalUserIds -> WATCH_REQUEST_INVALID`,
    { ...query, externalUserIds: externalIds(IDS_MAX + 1) },
    "/externalUserIds",
  ),
  ok(`Limits: uids and externalUserIds combined ${IDS_MAX} -> valid`, {
    ...query,
    uids: uids(IDS_MAX / 2),
    externalUserIds: externalIds(IDS_MAX / 2),
  }),
  watchInvalid(
    `Limits: uids and externalUserIds combined ${IDS_MAX + 1} -> WATCH_REQUEST_INVALID`,
    { ...query, uids: uids(IDS_MAX / 2), externalUserIds: externalIds(IDS_MAX / 2 + 1) },
    "",
  ),
  watchInvalid(
    `duplicates count toward the combined ${IDS_MAX}: ${IDS_MAX - 1} copies of one uid and 2 copies of one id -> WATCH_REQUEST_INVALID`,
    { ...query, uids: Array<number>(IDS_MAX - 1).fill(10001), externalUserIds: ["crm-000123", "crm-000123"] },
    "",
  ),
  ok(`Limits: externalUserIds entry of ${ID_MAX} characters -> valid`, {
    ...query,
    externalUserIds: ["e".repeat(ID_MAX)],
  }),
  invalid(
    `Limits: externalUserIds entry of ${ID_MAX + 1} characters -> REQUEST_INVALID`,
    { ...query, externalUserIds: ["e".repeat(ID_MAX + 1)] },
    "/externalUserIds/0",
  ),
  ok(`Limits: externalUserIds entry of ${ID_MAX} Unicode characters (emoji) -> valid`, {
    ...query,
    externalUserIds: [EMOJI.repeat(ID_MAX)],
  }),
  invalid("externalUserIds entry empty -> REQUEST_INVALID", { ...query, externalUserIds: [""] }, "/externalUserIds/0"),
  invalid(
    "externalUserIds entries are strings: a number -> REQUEST_INVALID",
    { ...query, externalUserIds: [123] },
    "/externalUserIds/0",
  ),
  ...textVectors(
    "an externalUserIds entry",
    (text) => ({ ...query, externalUserIds: ["crm-000123", `crm${text}000124`] }),
    "/externalUserIds/1",
  ),
  invalid(
    "Conventions: text has no control characters: LF (U+000A) at the end of an externalUserIds entry -> REQUEST_INVALID",
    { ...query, externalUserIds: ["crm-000124\n"] },
    "/externalUserIds/0",
  ),
  ok("minWatchSeconds 0 means no lower bound -> valid", { ...query, minWatchSeconds: 0 }),
  ok("minWatchSeconds 600 -> valid", { ...query, minWatchSeconds: 600 }),
  invalid(
    "Conventions: minWatchSeconds is a non-negative integer: -1 -> REQUEST_INVALID",
    { ...query, minWatchSeconds: -1 },
    "/minWatchSeconds",
  ),
  invalid(
    "minWatchSeconds is an integer: 1.5 -> REQUEST_INVALID",
    { ...query, minWatchSeconds: 1.5 },
    "/minWatchSeconds",
  ),
  ok(`Limits: minWatchSeconds ${INTEGER_MAX} (2^53 - 1) -> valid`, { ...query, minWatchSeconds: INTEGER_MAX }),
  ...integerVectors("minWatchSeconds", { ...query, minWatchSeconds: NUMBER }, "/minWatchSeconds"),
  rawValid(
    "Conventions: an integer is judged by its JSON value: minWatchSeconds 1.0e2 is 100 -> valid",
    withNumber({ ...query, minWatchSeconds: NUMBER }, "1.0e2"),
    { ...query, minWatchSeconds: 100 },
  ),
  invalid("minWatchSeconds null -> REQUEST_INVALID", { ...query, minWatchSeconds: null }, "/minWatchSeconds"),
  ok(`Limits: cursor of ${CURSOR_MAX} characters -> valid`, { ...query, cursor: "c".repeat(CURSOR_MAX) }),
  watchInvalid(
    `Limits: cursor of ${CURSOR_MAX + 1} characters -> WATCH_REQUEST_INVALID`,
    { ...query, cursor: "c".repeat(CURSOR_MAX + 1) },
    "/cursor",
  ),
  watchInvalid(
    "cursor is the previous nextCursor unchanged: an empty cursor matches no query -> WATCH_REQUEST_INVALID",
    { ...query, cursor: "" },
    "/cursor",
  ),
  invalid("cursor is a string: a number -> REQUEST_INVALID", { ...query, cursor: 2 }, "/cursor"),
  ...textVectors(
    "cursor (its own code)",
    (text) => ({ ...query, cursor: `c1.${text}.5f1d0a` }),
    "/cursor",
    "WATCH_REQUEST_INVALID",
  ),
  watchInvalid(
    "Conventions: text has no control characters: LF (U+000A) at the end of cursor (its own code) -> WATCH_REQUEST_INVALID",
    { ...query, cursor: "c1.5f1d0a\n" },
    "/cursor",
  ),
  invalid("cursor omitted on the first request, not null -> REQUEST_INVALID", { ...query, cursor: null }, "/cursor"),
  invalid(
    "a body breaking REQUEST_INVALID and WATCH_REQUEST_INVALID rules (pageSize 0, cursor too long) -> REQUEST_INVALID",
    { ...query, pageSize: 0, cursor: "c".repeat(CURSOR_MAX + 1) },
    "/pageSize",
  ),
  invalid("there is no total or page number: page -> REQUEST_INVALID", { ...query, page: 2 }, "/page"),
  ...bodyShapeVectors({ ...query }),
];

/** JSON with two-space indentation, but a list of plain values on one line (300 uids stay readable). */
function format(value: Json, indent = ""): string {
  if (Array.isArray(value)) {
    if (value.every((item) => item === null || typeof item !== "object"))
      return `[${value.map((item) => JSON.stringify(item)).join(", ")}]`;
    const inner = `${indent}  `;
    return `[\n${value.map((item) => `${inner}${format(item, inner)}`).join(",\n")}\n${indent}]`;
  }
  if (value !== null && typeof value === "object") {
    const inner = `${indent}  `;
    const entries = Object.entries(value).map(
      ([key, item]) => `${inner}${JSON.stringify(key)}: ${format(item, inner)}`,
    );
    return entries.length === 0 ? "{}" : `{\n${entries.join(",\n")}\n${indent}}`;
  }
  return JSON.stringify(value);
}

/** Every operation's vectors, as the text of its JSON file. */
export function renderRequestVectors(): Record<string, string> {
  const files: Record<string, string> = {};
  for (const [operationId, vectors] of Object.entries({
    upsertViewer,
    issueLoginTicket,
    getWatchOverview,
    queryViewerWatch,
  })) {
    files[operationId] = `${format(vectors as unknown as Json)}\n`;
  }
  return files;
}

/** spec/test-vectors/requests/ */
export const requestVectorsFolder = new URL("../../../spec/test-vectors/requests/", import.meta.url);
