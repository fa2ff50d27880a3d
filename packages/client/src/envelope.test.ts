import { describe, expect, it } from "vitest";
import { readEnvelope } from "./envelope";

describe("readEnvelope", () => {
  it.each([
    {
      rule: "success envelope with data",
      status: 200,
      body: '{"requestId":"req_1","data":{"created":true}}',
      expected: { kind: "success", requestId: "req_1", data: { created: true } },
    },
    {
      rule: "ErrorEnvelope: error envelope with details",
      status: 400,
      body: '{"requestId":"req_2","error":{"code":"CONTENT_SENSITIVE","message":"rejected","details":{"matches":["x"]}}}',
      expected: {
        kind: "error",
        requestId: "req_2",
        code: "CONTENT_SENSITIVE",
        message: "rejected",
        details: { matches: ["x"] },
      },
    },
    {
      rule: "ErrorEnvelope: error envelope without details",
      status: 409,
      body: '{"requestId":"req_3","error":{"code":"OPEN_API_REPLAYED","message":"nonce already used"}}',
      expected: {
        kind: "error",
        requestId: "req_3",
        code: "OPEN_API_REPLAYED",
        message: "nonce already used",
        details: undefined,
      },
    },
  ])("$rule", ({ status, body, expected }) => {
    expect(readEnvelope(status, body)).toEqual(expected);
  });

  it.each([
    {
      rule: "ErrorEnvelope: a gateway's HTML 413 page",
      status: 413,
      body: "<html><body>413 Request Entity Too Large</body></html>",
      problem: "not JSON",
    },
    { rule: "an empty body", status: 502, body: "", problem: "empty" },
    { rule: "a truncated body", status: 200, body: '{"requestId":"req_1","da', problem: "not JSON" },
    { rule: "a JSON array", status: 200, body: "[]", problem: "not a JSON object" },
    { rule: "success without data", status: 200, body: '{"requestId":"req_1"}', problem: "no data" },
    { rule: "success without requestId", status: 200, body: '{"data":{}}', problem: "no requestId" },
    {
      rule: "an error envelope on a 2xx is not data",
      status: 200,
      body: '{"requestId":"r","error":{"code":"X","message":"m"}}',
      problem: "no data",
    },
    {
      rule: "a gateway's JSON of another shape",
      status: 503,
      body: '{"message":"Service Unavailable"}',
      problem: "no requestId",
    },
    {
      rule: "an error without a code",
      status: 500,
      body: '{"requestId":"r","error":{"message":"m"}}',
      problem: "no error.code",
    },
    {
      rule: "details that are not an object",
      status: 400,
      body: '{"requestId":"r","error":{"code":"REQUEST_INVALID","message":"m","details":"x"}}',
      problem: "details",
    },
  ])("malformed: $rule", ({ status, body, problem }) => {
    const envelope = readEnvelope(status, body);
    expect(envelope.kind).toBe("malformed");
    expect(envelope.kind === "malformed" && envelope.problem).toContain(problem);
  });
});
