import type {
  ErrorEnvelope,
  GetWatchOverviewRequest,
  QueryViewerWatchRequest,
  UpsertViewerRequest,
} from "@org/webinar-types";
import { describe, expect, expectTypeOf, it } from "vitest";
import { examplesOf, specOperations } from "../test/support/spec";
import { MAX_REPORTED_ISSUES, parseAndValidate } from "./parse-and-validate";

const utf8 = (text: string) => new TextEncoder().encode(text);
const errorExample = (operationId: string, status: string, name: string) => {
  const operation = specOperations.find(([id]) => id === operationId)![1];
  const response = operation.responses[status];
  return Object.fromEntries(examplesOf(response.content))[name] as ErrorEnvelope;
};

describe("parseAndValidate reproduces the spec's own error examples", () => {
  it.each([
    {
      rule: "upsertViewer: phone null (example PhoneNullInvalid)",
      operationId: "upsertViewer",
      body: '{"externalUserId":"crm-000123","phone":null}',
      example: ["upsertViewer", "400", "phoneNull"],
    },
    {
      rule: "issueLoginTicket: uid out of range (example uidOutOfRange)",
      operationId: "issueLoginTicket",
      body: '{"uid":9999,"ticketCode":"wbn-7Hq2kP9x"}',
      example: ["issueLoginTicket", "400", "uidOutOfRange"],
    },
    {
      rule: "getWatchOverview: playbackMode missing (example missingMode)",
      operationId: "getWatchOverview",
      body: '{"ticketCode":"wbn-7Hq2kP9x"}',
      example: ["getWatchOverview", "400", "missingMode"],
    },
    {
      rule: "queryViewerWatch: pageSize missing (example pageSizeMissing)",
      operationId: "queryViewerWatch",
      body: '{"ticketCode":"wbn-7Hq2kP9x","playbackMode":"ALL","sort":"WATCH_SECONDS_DESC"}',
      example: ["queryViewerWatch", "400", "pageSizeMissing"],
    },
  ] as const)("$rule", ({ operationId, body, example }) => {
    const expected = errorExample(example[0], example[1], example[2]);
    const result = parseAndValidate(operationId, utf8(body));
    expect(result).toEqual({ ok: false, status: 400, error: expected.error });
  });

  it("queryViewerWatch: more than 300 ids combined (example tooManyIds): code, message, count and limit", () => {
    const expected = errorExample("queryViewerWatch", "400", "tooManyIds");
    const body = {
      ticketCode: "wbn-7Hq2kP9x",
      playbackMode: "ALL",
      sort: "WATCH_SECONDS_DESC",
      pageSize: 10,
      uids: Array(150).fill(10001),
      externalUserIds: Array(151).fill("a"),
    };
    const result = parseAndValidate("queryViewerWatch", JSON.stringify(body));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error).toMatchObject({
      code: expected.error.code,
      message: expected.error.message,
      details: expected.error.details,
    });
    expect(result.error.details?.errors).toEqual([expect.objectContaining({ pointer: "", rule: "maxCombinedIds" })]);
  });
});

describe("parseAndValidate", () => {
  it("every offending field is reported (allErrors), each with pointer, rule and message", () => {
    const result = parseAndValidate(
      "queryViewerWatch",
      '{"ticketCode":"a b","playbackMode":"live","sort":"X","pageSize":0,"extra":1}',
    );
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.status).toBe(400);
    expect(result.error.code).toBe("REQUEST_INVALID");
    const errors = result.error.details?.errors as Array<{ pointer: string; rule: string; message: string }>;
    expect(errors.map(({ pointer, rule }) => `${pointer} ${rule}`).sort()).toEqual([
      "/extra additionalProperties",
      "/pageSize minimum",
      "/playbackMode enum",
      "/sort enum",
      "/ticketCode pattern",
    ]);
    for (const error of errors) expect(error.message).toEqual(expect.any(String));
  });

  it("queryViewerWatch: an x-error-code property's own constraint -> WATCH_REQUEST_INVALID with a message naming it", () => {
    const result = parseAndValidate(
      "queryViewerWatch",
      JSON.stringify({
        ticketCode: "a",
        playbackMode: "ALL",
        sort: "WATCH_SECONDS_DESC",
        pageSize: 1,
        cursor: "c".repeat(1025),
      }),
    );
    expect(result).toMatchObject({
      ok: false,
      status: 400,
      error: {
        code: "WATCH_REQUEST_INVALID",
        message: "cursor must NOT have more than 1024 characters",
        details: { errors: [{ pointer: "/cursor", rule: "maxLength" }] },
      },
    });
  });

  it(`a flood of invalid items is reported up to ${MAX_REPORTED_ISSUES} entries, the rest counted`, () => {
    const body = {
      ticketCode: "a",
      playbackMode: "ALL",
      sort: "WATCH_SECONDS_DESC",
      pageSize: 1,
      uids: Array(120).fill(1),
    };
    const result = parseAndValidate("queryViewerWatch", JSON.stringify(body));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.details?.errors).toHaveLength(MAX_REPORTED_ISSUES);
    expect(result.error.details?.omittedErrors).toBe(120 - MAX_REPORTED_ISSUES);
  });

  it.each([
    { rule: "a UTF-8 body: invalid UTF-8 -> utf8", body: new Uint8Array([0x7b, 0xc3, 0x28, 0x7d]), expected: "utf8" },
    {
      rule: "a UTF-8 body without a byte order mark: a BOM -> json",
      body: new Uint8Array([0xef, 0xbb, 0xbf, 0x7b, 0x7d]),
      expected: "json",
    },
    {
      rule: "Conventions, exactly one JSON object: a truncated object -> json",
      body: utf8('{"externalUserId":"a"'),
      expected: "json",
    },
    { rule: "Conventions, exactly one JSON object: an array -> type", body: utf8("[]"), expected: "type" },
    { rule: "Conventions, exactly one JSON object: true -> type", body: utf8("true"), expected: "type" },
  ])("$rule at pointer ''", ({ body, expected }) => {
    expect(parseAndValidate("upsertViewer", body)).toEqual({
      ok: false,
      status: 400,
      error: {
        code: "REQUEST_INVALID",
        message: "request body is invalid",
        details: { errors: [{ pointer: "", rule: expected, message: expect.any(String) }] },
      },
    });
  });

  it("upsertViewer: the value is trimmed and a blank phone dropped; a Uint8Array view is read over its window only", () => {
    const bytes = utf8('xx{"externalUserId":" crm-1 ","phone":" ","displayName":" 张三 "}yy');
    const result = parseAndValidate("upsertViewer", bytes.subarray(2, bytes.length - 2));
    expect(result).toEqual({ ok: true, value: { externalUserId: "crm-1", displayName: "张三" } });
  });

  it("queryViewerWatch: a cursor with a forbidden character answers the cursor's own code, WATCH_REQUEST_INVALID", () => {
    const result = parseAndValidate(
      "queryViewerWatch",
      JSON.stringify({
        ticketCode: "a",
        playbackMode: "ALL",
        sort: "WATCH_SECONDS_DESC",
        pageSize: 1,
        cursor: "c1.\u0000",
      }),
    );
    expect(result).toMatchObject({
      ok: false,
      status: 400,
      error: { code: "WATCH_REQUEST_INVALID", details: { errors: [{ pointer: "/cursor", rule: "pattern" }] } },
    });
  });

  it("upsertViewer: two ids that differ only in a lone surrogate half are both rejected, never turned into one viewer", () => {
    for (const half of ["\\ud800", "\\udc00"]) {
      expect(parseAndValidate("upsertViewer", `{"externalUserId":"crm-${half}"}`)).toMatchObject({
        ok: false,
        status: 400,
        error: { code: "REQUEST_INVALID", details: { errors: [{ pointer: "/externalUserId", rule: "pattern" }] } },
      });
    }
  });

  it("upsertViewer: a displayName of 80 000 letters and a control character is rejected for its length and its character", () => {
    // A character rule that backtracks would take seconds on this body, on the event loop every request shares.
    const result = parseAndValidate(
      "upsertViewer",
      JSON.stringify({ externalUserId: "crm-1", displayName: `${"a".repeat(80_000)}\u0000` }),
    );
    expect(result).toMatchObject({ ok: false, status: 400, error: { code: "REQUEST_INVALID" } });
    if (result.ok) return;
    expect(
      (result.error.details!.errors as Array<{ pointer: string; rule: string }>)
        .map(({ pointer, rule }) => `${pointer} ${rule}`)
        .sort(),
    ).toEqual(["/displayName maxLength", "/displayName pattern"]);
  });

  it("a string body is accepted as already-decoded text", () => {
    expect(parseAndValidate("getWatchOverview", '{"ticketCode":"WBN8K2QX","playbackMode":"ALL"}')).toEqual({
      ok: true,
      value: { ticketCode: "WBN8K2QX", playbackMode: "ALL" },
    });
  });

  it("the value is typed per operation (RequestBody<Op>)", () => {
    const upsert = parseAndValidate("upsertViewer", "{}");
    if (upsert.ok) expectTypeOf(upsert.value).toEqualTypeOf<UpsertViewerRequest>();
    const overview = parseAndValidate("getWatchOverview", "{}");
    if (overview.ok) expectTypeOf(overview.value).toEqualTypeOf<GetWatchOverviewRequest>();
    const query = parseAndValidate("queryViewerWatch", "{}");
    if (query.ok) expectTypeOf(query.value).toEqualTypeOf<QueryViewerWatchRequest>();
  });

  it.each(
    specOperations.flatMap(([operationId, operation]) =>
      examplesOf(operation.requestBody.content).map(([name, value]) => [operationId, name, value] as const),
    ),
  )("the spec's request example %s/%s is valid", (operationId, _name, value) => {
    expect(parseAndValidate(operationId as "upsertViewer", JSON.stringify(value)).ok).toBe(true);
  });
});

describe("upsertViewer: the display-name rule keeps the intent of the pattern it replaced", () => {
  // The former pattern: text without control characters or line breaks, with at least one non-space. It
  // backtracked quadratically, so the spec now says the same with a linear pattern and trimming + minLength.
  const FORMER_PATTERN = /^[^\p{Cc}\u2028\u2029]*[^\s\p{Cc}\u2028\u2029][^\p{Cc}\u2028\u2029]*$/u;
  // Letters, spaces (ASCII, ideographic), white-space and other controls, a line separator, a format character,
  // and the two halves of one emoji, which form a valid pair only when adjacent and in order.
  const ALPHABET = [
    "a",
    "张",
    " ",
    "\u3000",
    "\t",
    "\n",
    "\u0000",
    "\u007f",
    "\u0085",
    "\u2028",
    "\u200d",
    "\ud83d",
    "\udc3c",
  ];
  const stringsUpTo = (length: number): string[] => {
    let level = [""];
    const all = [""];
    for (let size = 1; size <= length; size++) {
      level = level.flatMap((prefix) => ALPHABET.map((character) => prefix + character));
      all.push(...level);
    }
    return all;
  };
  // The one deliberate difference: a lone surrogate, which the former pattern let through, is now rejected.
  const isWellFormed = (text: string) => new TextDecoder().decode(new TextEncoder().encode(text)) === text;

  it("every displayName of length <= 3 over representative characters: accepted exactly when the former pattern accepted it trimmed and it is well-formed", () => {
    const disagreements = stringsUpTo(3).filter((displayName) => {
      const trimmed = displayName.trim();
      const intended = FORMER_PATTERN.test(trimmed) && isWellFormed(trimmed);
      return parseAndValidate("upsertViewer", JSON.stringify({ externalUserId: "crm-1", displayName })).ok !== intended;
    });
    expect(disagreements.map((text) => JSON.stringify(text))).toEqual([]);
  });
});
