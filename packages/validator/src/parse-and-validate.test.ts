import type { ErrorEnvelope, GetWatchOverviewRequest, QueryViewerWatchRequest, UpsertViewerRequest } from "@org/webinar-types";
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
    { rule: "§4.3 phone null (example PhoneNullInvalid)", operationId: "upsertViewer", body: '{"externalUserId":"crm-000123","phone":null}', example: ["upsertViewer", "400", "phoneNull"] },
    { rule: "§4.4 uid out of range (example uidOutOfRange)", operationId: "issueLoginTicket", body: '{"uid":9999,"ticketCode":"wbn-7Hq2kP9x"}', example: ["issueLoginTicket", "400", "uidOutOfRange"] },
    { rule: "§4.5 playbackMode missing (example missingMode)", operationId: "getWatchOverview", body: '{"ticketCode":"wbn-7Hq2kP9x"}', example: ["getWatchOverview", "400", "missingMode"] },
    {
      rule: "§4.6 pageSize missing (example pageSizeMissing)",
      operationId: "queryViewerWatch",
      body: '{"ticketCode":"wbn-7Hq2kP9x","playbackMode":"ALL","sort":"WATCH_SECONDS_DESC"}',
      example: ["queryViewerWatch", "400", "pageSizeMissing"],
    },
  ] as const)("$rule", ({ operationId, body, example }) => {
    const expected = errorExample(example[0], example[1], example[2]);
    const result = parseAndValidate(operationId, utf8(body));
    expect(result).toEqual({ ok: false, status: 400, error: expected.error });
  });

  it("§4.6 more than 300 ids combined (example tooManyIds): code, message, count and limit", () => {
    const expected = errorExample("queryViewerWatch", "400", "tooManyIds");
    const body = { ticketCode: "wbn-7Hq2kP9x", playbackMode: "ALL", sort: "WATCH_SECONDS_DESC", pageSize: 10, uids: Array(150).fill(10001), externalUserIds: Array(151).fill("a") };
    const result = parseAndValidate("queryViewerWatch", JSON.stringify(body));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error).toMatchObject({ code: expected.error.code, message: expected.error.message, details: expected.error.details });
    expect(result.error.details?.errors).toEqual([expect.objectContaining({ pointer: "", rule: "maxCombinedIds" })]);
  });
});

describe("parseAndValidate", () => {
  it("§4 every offending field is reported (allErrors), each with pointer, rule and message", () => {
    const result = parseAndValidate("queryViewerWatch", '{"ticketCode":"a b","playbackMode":"live","sort":"X","pageSize":0,"extra":1}');
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.status).toBe(400);
    expect(result.error.code).toBe("REQUEST_INVALID");
    const errors = result.error.details?.errors as Array<{ pointer: string; rule: string; message: string }>;
    expect(errors.map(({ pointer, rule }) => `${pointer} ${rule}`).sort()).toEqual(["/extra additionalProperties", "/pageSize minimum", "/playbackMode enum", "/sort enum", "/ticketCode pattern"]);
    for (const error of errors) expect(error.message).toEqual(expect.any(String));
  });

  it("§4.6 an x-error-code property's own constraint -> WATCH_REQUEST_INVALID with a message naming it", () => {
    const result = parseAndValidate("queryViewerWatch", JSON.stringify({ ticketCode: "a", playbackMode: "ALL", sort: "WATCH_SECONDS_DESC", pageSize: 1, cursor: "c".repeat(1025) }));
    expect(result).toMatchObject({ ok: false, status: 400, error: { code: "WATCH_REQUEST_INVALID", message: "cursor must NOT have more than 1024 characters", details: { errors: [{ pointer: "/cursor", rule: "maxLength" }] } } });
  });

  it(`a flood of invalid items is reported up to ${MAX_REPORTED_ISSUES} entries, the rest counted`, () => {
    const body = { ticketCode: "a", playbackMode: "ALL", sort: "WATCH_SECONDS_DESC", pageSize: 1, uids: Array(120).fill(1) };
    const result = parseAndValidate("queryViewerWatch", JSON.stringify(body));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.details?.errors).toHaveLength(MAX_REPORTED_ISSUES);
    expect(result.error.details?.omittedErrors).toBe(120 - MAX_REPORTED_ISSUES);
  });

  it.each([
    { rule: "§4 invalid UTF-8 -> utf8", body: new Uint8Array([0x7b, 0xc3, 0x28, 0x7d]), expected: "utf8" },
    { rule: "§4 a UTF-8 byte order mark -> json", body: new Uint8Array([0xef, 0xbb, 0xbf, 0x7b, 0x7d]), expected: "json" },
    { rule: "§2.6 a truncated object -> json", body: utf8('{"externalUserId":"a"'), expected: "json" },
    { rule: "§2.6 an array -> type", body: utf8("[]"), expected: "type" },
    { rule: "§2.6 true -> type", body: utf8("true"), expected: "type" },
  ])("$rule at pointer ''", ({ body, expected }) => {
    expect(parseAndValidate("upsertViewer", body)).toEqual({
      ok: false,
      status: 400,
      error: { code: "REQUEST_INVALID", message: "request body is invalid", details: { errors: [{ pointer: "", rule: expected, message: expect.any(String) }] } },
    });
  });

  it("§4.3 the value is trimmed and a blank phone dropped; a Uint8Array view is read over its window only", () => {
    const bytes = utf8('xx{"externalUserId":" crm-1 ","phone":" ","displayName":" 张三 "}yy');
    const result = parseAndValidate("upsertViewer", bytes.subarray(2, bytes.length - 2));
    expect(result).toEqual({ ok: true, value: { externalUserId: "crm-1", displayName: "张三" } });
  });

  it("a string body is accepted as already-decoded text", () => {
    expect(parseAndValidate("getWatchOverview", '{"ticketCode":"WBN8K2QX","playbackMode":"ALL"}')).toEqual({ ok: true, value: { ticketCode: "WBN8K2QX", playbackMode: "ALL" } });
  });

  it("the value is typed per operation (RequestBody<Op>)", () => {
    const upsert = parseAndValidate("upsertViewer", "{}");
    if (upsert.ok) expectTypeOf(upsert.value).toEqualTypeOf<UpsertViewerRequest>();
    const overview = parseAndValidate("getWatchOverview", "{}");
    if (overview.ok) expectTypeOf(overview.value).toEqualTypeOf<GetWatchOverviewRequest>();
    const query = parseAndValidate("queryViewerWatch", "{}");
    if (query.ok) expectTypeOf(query.value).toEqualTypeOf<QueryViewerWatchRequest>();
  });

  it.each(specOperations.flatMap(([operationId, operation]) => examplesOf(operation.requestBody.content).map(([name, value]) => [operationId, name, value] as const)))(
    "the spec's request example %s/%s is valid",
    (operationId, _name, value) => {
      expect(parseAndValidate(operationId as "upsertViewer", JSON.stringify(value)).ok).toBe(true);
    },
  );
});
