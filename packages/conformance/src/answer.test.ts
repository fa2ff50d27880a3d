import { describe, expect, it } from "vitest";
import { judgeAnswer, printableBody } from "./answer";
import type { WireAnswer } from "./transport";

const answer = (status: number, body: unknown, text = JSON.stringify(body)): WireAnswer => ({
  status,
  headers: { "content-type": "application/json" },
  text,
  json: body,
  isJson: body !== undefined,
  sentAtMs: 0,
  receivedAtMs: 0,
});

const viewer = { uid: 10001, externalUserId: "crm-1", phone: null, displayName: null };

describe("every answer is judged by the spec's response schema", () => {
  it.each([
    [
      "upsertViewer 200, the success envelope",
      answer(200, { requestId: "r", data: { viewer, created: true } }),
      "upsertViewer",
      0,
    ],
    [
      "upsertViewer 200 with an extra field",
      answer(200, { requestId: "r", data: { viewer, created: true }, ok: true }),
      "upsertViewer",
      1,
    ],
    ["upsertViewer 200 without requestId", answer(200, { data: { viewer, created: true } }), "upsertViewer", 1],
    [
      "getWatchOverview 409 with a code of another response",
      answer(409, { requestId: "r", error: { code: "VIEWER_IDENTITY_CONFLICT", message: "x" } }),
      "getWatchOverview",
      1,
    ],
    [
      "upsertViewer 404, a status it does not document",
      answer(404, { requestId: "r", error: { code: "WEBINAR_NOT_FOUND", message: "x" } }),
      "upsertViewer",
      1,
    ],
    [
      "no operation: 405 in the error envelope",
      answer(405, { requestId: "r", error: { code: "REQUEST_INVALID", message: "x" } }),
      undefined,
      0,
    ],
    [
      "no operation: an unknown error code",
      answer(404, { requestId: "r", error: { code: "NOT_FOUND", message: "x" } }),
      undefined,
      1,
    ],
    ["an HTML answer", answer(404, undefined, "<html></html>"), undefined, 1],
    ["a gateway's 413 need not be JSON", answer(413, undefined, "<html>too large</html>"), "upsertViewer", 0],
  ] as const)("%s", (_name, wire, operationId, problemCount) => {
    expect(judgeAnswer(wire, operationId)).toHaveLength(problemCount);
  });

  it("the report never shows a login ticket or a login URL", () => {
    const ticket = answer(200, {
      requestId: "r",
      data: {
        loginTicket: "lt_secret",
        loginUrl: "https://w/#login_ticket=lt_secret",
        expiresAt: "2026-01-01T00:00:00Z",
      },
    });
    expect(printableBody(ticket)).not.toContain("lt_secret");
    expect(printableBody(ticket)).toContain('"loginTicket":"<redacted>"');
  });
});
