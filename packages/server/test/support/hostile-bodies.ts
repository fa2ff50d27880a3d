/**
 * Generators of hostile request bodies (fast-check), as raw JSON text so that forms JSON.stringify never writes
 * (1e19, 1.0e2, -0, duplicate keys, a byte-order mark, two documents) reach the server too: arbitrary JSON,
 * near-valid bodies with one field replaced by a hostile value, removed or joined by an unknown one, strings with
 * NUL, other control characters, lone surrogates and huge lengths, huge and fractional numbers, wrong types and
 * deep nesting, and text that is not JSON at all.
 */
import { fc } from "@fast-check/vitest";
import type { OperationId } from "@org/webinar-types";

/** A body as sent; fast-check prints it shortened (a counterexample may hold bodies over 1 MiB). */
export class SentBody {
  constructor(readonly text: string) {}
  [fc.toStringMethod](): string {
    return this.text.length <= 300
      ? JSON.stringify(this.text)
      : `${JSON.stringify(this.text.slice(0, 300))}... (${this.text.length} characters)`;
  }
}

/** `count` bodies from `body`, sent together in one property run. */
export function batchOf(body: fc.Arbitrary<string>, count: number): fc.Arbitrary<SentBody[]> {
  return fc.array(
    body.map((text) => new SentBody(text)),
    { minLength: count, maxLength: count },
  );
}

/** A value kept as raw JSON text when serialized with {@link toJsonText}. */
export class RawJson {
  constructor(readonly text: string) {}
}

/** What a valid body of each operation needs from the test's data. */
export interface BodyContext {
  ticketCode: string;
  uids: number[];
}

// Characters that break naive text handling: NUL and other C0/C1 controls, DEL, line and paragraph separators,
// lone surrogates (valid JSON escapes), byte-order mark, zero-width and non-characters, quotes and backslash.
const SPECIAL_CHARACTERS = [
  "\u0000",
  "\u0001",
  "\u0009",
  "\u000a",
  "\u000d",
  "\u001f",
  "\u007f",
  "\u0080",
  "\u0085",
  "\u009f",
  "\u2028",
  "\u2029",
  "\ud800",
  "\udbff",
  "\udc00",
  "\udfff",
  "\ufeff",
  "\u200b",
  "\ufffe",
  "\uffff",
  '"',
  "\\",
  "/",
  "%00",
  "😀",
  "é",
  " ",
];

/** One UTF-16 code unit of any kind (lone surrogates included), or one of the special characters. */
const hostileUnit = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...SPECIAL_CHARACTERS) },
  { weight: 2, arbitrary: fc.integer({ min: 0, max: 0xffff }).map((unit) => String.fromCharCode(unit)) },
  { weight: 2, arbitrary: fc.constantFrom("a", "Z", "0", "9", "-", "_") },
);

/** A short hostile string (any field). */
const hostileShortString = fc.string({ unit: hostileUnit, maxLength: 60 });

/**
 * A long run of one character, up to well past any field's limit, optionally ended by a special character.
 * Display names get short hostile strings only: how long a pattern takes on a long string is the subject of the
 * spec's own pattern test, not of this one.
 */
const hostileLongString = fc
  .tuple(
    fc.constantFrom(...SPECIAL_CHARACTERS, "a", "1"),
    fc.integer({ min: 200, max: 300_000 }),
    fc.constantFrom("", ...SPECIAL_CHARACTERS),
  )
  .map(([character, length, end]) => character.repeat(length) + end);

/** Numbers as raw JSON text: huge, tiny, negative, fractional, exponent forms, beyond 2^53. */
const RAW_NUMBERS = [
  "1e19",
  "1E2",
  "1.0e2",
  "100.0",
  "-0",
  "0",
  "-1",
  "0.5",
  "1e-400",
  "1e308",
  "-1e308",
  "9007199254740993",
  "12345678901234567890123",
  "9999999",
  "10000",
  "2147483648",
  "4294967296",
  "1e3",
];
const hostileNumber = fc.oneof(
  fc.constantFrom(...RAW_NUMBERS).map((text) => new RawJson(text)),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.integer({ min: 0, max: 20_000_000 }),
);

/** Nesting `depth` deep of arrays or objects around a value. */
const deepNesting = fc
  .tuple(fc.integer({ min: 10, max: 20_000 }), fc.boolean())
  .map(
    ([depth, arrays]) =>
      new RawJson(
        arrays ? `${"[".repeat(depth)}1${"]".repeat(depth)}` : `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`,
      ),
  );

/** Any hostile value for a field. */
function hostileValue(allowLong: boolean): fc.Arbitrary<unknown> {
  return fc.oneof(
    { weight: 4, arbitrary: hostileShortString },
    { weight: allowLong ? 1 : 0, arbitrary: hostileLongString },
    { weight: 3, arbitrary: hostileNumber },
    { weight: 1, arbitrary: fc.constantFrom(null, true, false, [], {}, "", " ") },
    { weight: 1, arbitrary: deepNesting },
    { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
    { weight: 2, arbitrary: fc.array(fc.oneof(hostileShortString, hostileNumber), { maxLength: 400 }) },
  );
}

/** JSON text of `value`, with every {@link RawJson} written as its raw text. */
export function toJsonText(value: unknown): string {
  const raws: string[] = [];
  const text = JSON.stringify(value, (_key, inner: unknown) => {
    if (inner instanceof RawJson) {
      raws.push(inner.text);
      return `\u0000raw${raws.length - 1}\u0000`;
    }
    return inner;
  });
  return text.replace(/"\\u0000raw(\d+)\\u0000"/g, (_match, index: string) => raws[Number(index)]!);
}

/** A valid body of each operation, and the fields its schema knows. */
function validBody(operationId: OperationId, context: BodyContext): fc.Arbitrary<Record<string, unknown>> {
  const uid = fc.constantFrom(...context.uids);
  switch (operationId) {
    case "upsertViewer":
      return fc.record(
        {
          externalUserId: fc.stringMatching(/^prop-[a-z0-9]{1,12}$/),
          phone: fc.constantFrom("13800138000", "15912345678", ""),
          displayName: fc.constantFrom("Ada", null, " Grace "),
        },
        { requiredKeys: ["externalUserId"] },
      );
    case "issueLoginTicket":
      return fc.record({ uid, ticketCode: fc.constant(context.ticketCode) });
    case "getWatchOverview":
      return fc.record({
        ticketCode: fc.constant(context.ticketCode),
        playbackMode: fc.constantFrom("ALL", "LIVE", "REPLAY"),
      });
    case "queryViewerWatch":
      return fc.record(
        {
          ticketCode: fc.constant(context.ticketCode),
          playbackMode: fc.constantFrom("ALL", "LIVE", "REPLAY"),
          sort: fc.constantFrom("WATCH_SECONDS_DESC", "LAST_WATCHED_DESC", "FIRST_WATCHED_ASC"),
          pageSize: fc.integer({ min: 1, max: 100 }),
          uids: fc.array(uid, { maxLength: 5 }),
          externalUserIds: fc.array(fc.stringMatching(/^prop-[a-z0-9]{1,12}$/), { maxLength: 5 }),
          minWatchSeconds: fc.integer({ min: 0, max: 1000 }),
        },
        { requiredKeys: ["ticketCode", "playbackMode", "sort", "pageSize"] },
      );
  }
}

const FIELDS: Record<OperationId, string[]> = {
  upsertViewer: ["externalUserId", "phone", "displayName"],
  issueLoginTicket: ["uid", "ticketCode"],
  getWatchOverview: ["ticketCode", "playbackMode"],
  queryViewerWatch: [
    "ticketCode",
    "playbackMode",
    "sort",
    "pageSize",
    "uids",
    "externalUserIds",
    "minWatchSeconds",
    "cursor",
  ],
};

/** A valid body with one field replaced by a hostile value, removed, or joined by an unknown field. */
function nearValidBody(operationId: OperationId, context: BodyContext): fc.Arbitrary<string> {
  return fc
    .tuple(
      validBody(operationId, context),
      fc.constantFrom(...FIELDS[operationId], "unknownField", "__proto__", "constructor"),
      fc.constantFrom("replace", "replace", "replace", "remove"),
    )
    .chain(([body, field, change]) =>
      hostileValue(field !== "displayName").map((value) => {
        const changed: Record<string, unknown> = { ...body };
        if (change === "remove") delete changed[field];
        else Object.defineProperty(changed, field, { value, enumerable: true, writable: true, configurable: true });
        return toJsonText(changed);
      }),
    );
}

/** Text that is not one JSON object: garbage, truncated JSON, two documents, a byte-order mark, duplicate keys. */
function malformedText(operationId: OperationId, context: BodyContext): fc.Arbitrary<string> {
  return fc.oneof(
    fc.string({ unit: hostileUnit, maxLength: 200 }),
    validBody(operationId, context).chain((body) => {
      const text = JSON.stringify(body);
      return fc.oneof(
        fc.integer({ min: 0, max: Math.max(0, text.length - 1) }).map((end) => text.slice(0, end)),
        fc.constant(`\ufeff${text}`),
        fc.constant(`${text}${text}`),
        fc.constant(`${text.slice(0, -1)},${text.slice(1)}`), // every key twice
        fc.constant(`[${text}]`),
      );
    }),
  );
}

/**
 * Hostile bodies of an Open API operation as raw text: near-valid ones most often, arbitrary JSON, malformed
 * text, and now and then a body over the 1 MiB limit.
 */
export function hostileBody(operationId: OperationId, context: BodyContext): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 10, arbitrary: nearValidBody(operationId, context) },
    { weight: 3, arbitrary: fc.jsonValue({ maxDepth: 4 }).map((value) => JSON.stringify(value) ?? "null") },
    {
      weight: 2,
      arbitrary: fc
        .dictionary(fc.oneof(fc.constantFrom(...FIELDS[operationId]), hostileShortString), hostileValue(false), {
          maxKeys: 6,
        })
        .map(toJsonText),
    },
    { weight: 2, arbitrary: malformedText(operationId, context) },
    { weight: 2, arbitrary: validBody(operationId, context).map(toJsonText) },
    {
      weight: 1,
      arbitrary: fc
        .integer({ min: 1_048_577, max: 1_200_000 })
        .map((size) => `{"externalUserId":"${"x".repeat(size)}"}`),
    },
  );
}

/** Hostile bodies of the watch page's ticket exchange. */
export function hostileExchangeBody(ticketCode: string): fc.Arbitrary<string> {
  const ticket = fc.oneof(
    hostileValue(true),
    fc.stringMatching(/^lt_[A-Za-z0-9_-]{43}$/),
    fc.stringMatching(/^lt_[A-Za-z0-9_-]{0,60}$/),
  );
  const code = fc.oneof(fc.constant(ticketCode), hostileValue(true));
  return fc.oneof(
    {
      weight: 6,
      arbitrary: fc.record({ ticketCode: code, loginTicket: ticket }, { requiredKeys: [] }).map(toJsonText),
    },
    {
      weight: 1,
      arbitrary: fc.record({ ticketCode: code, loginTicket: ticket, extra: hostileValue(false) }).map(toJsonText),
    },
    { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 4 }).map((value) => JSON.stringify(value) ?? "null") },
    { weight: 1, arbitrary: fc.string({ unit: hostileUnit, maxLength: 200 }) },
  );
}

/** Hostile bodies of an admin operation: arbitrary JSON objects over its fields with hostile values. */
export function hostileAdminBody(fields: string[]): fc.Arbitrary<string> {
  return fc.oneof(
    {
      weight: 6,
      arbitrary: fc
        .dictionary(fc.oneof(fc.constantFrom(...fields), hostileShortString), hostileValue(true), { maxKeys: 5 })
        .map(toJsonText),
    },
    { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 4 }).map((value) => JSON.stringify(value) ?? "null") },
    { weight: 1, arbitrary: fc.string({ unit: hostileUnit, maxLength: 200 }) },
  );
}
