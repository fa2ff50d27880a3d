import { describe, expect, it } from "vitest";
import { examplesOf, resolve, specOperations } from "../test/support/spec";
import { validateResponse } from "./validate-response";

type Op = Parameters<typeof validateResponse>[0];

const responseExamples = specOperations.flatMap(([operationId, operation]) =>
  Object.entries(operation.responses as Record<string, unknown>).flatMap(([status, response]) =>
    examplesOf(resolve(response).content).map(
      ([name, value]) => [operationId as Op, Number(status), name, value] as const,
    ),
  ),
);

const ticket = {
  loginTicket: "lt_1",
  loginUrl: "https://watch.example.com/w/wbn-1#login_ticket=lt_1",
  expiresAt: "2026-11-21T09:31:00Z",
};

describe("validateResponse", () => {
  it.each(responseExamples)("the spec's example of %s %s (%s) is valid", (operationId, status, _name, value) => {
    expect(validateResponse(operationId, status, value)).toEqual({ valid: true });
  });

  it.each([
    {
      rule: "Errors and retries an error code outside the response's x-error-codes (VIEWER_NOT_FOUND is not an upsert 400)",
      operationId: "upsertViewer" as Op,
      status: 400,
      body: { requestId: "req_1", error: { code: "VIEWER_NOT_FOUND", message: "x" } },
      pointer: "/error/code",
    },
    {
      rule: "Errors and retries TENANT_SUSPENDED is 403, not 409",
      operationId: "queryViewerWatch" as Op,
      status: 409,
      body: { requestId: "req_1", error: { code: "TENANT_SUSPENDED", message: "x" } },
      pointer: "/error/code",
    },
    {
      rule: "ErrorEnvelope an error envelope without requestId",
      operationId: "getWatchOverview" as Op,
      status: 404,
      body: { error: { code: "WEBINAR_NOT_FOUND", message: "x" } },
      pointer: "/requestId",
    },
    {
      rule: "the success envelope no code: 0 / success: true field in the success envelope",
      operationId: "issueLoginTicket" as Op,
      status: 200,
      body: { requestId: "r", data: ticket, success: true },
      pointer: "/success",
    },
    {
      rule: "LoginTicket expiresAt is UTC RFC 3339",
      operationId: "issueLoginTicket" as Op,
      status: 200,
      body: { requestId: "r", data: { ...ticket, expiresAt: "2026-11-21T17:31:00+08:00" } },
      pointer: "/data/expiresAt",
    },
    {
      rule: "LoginTicket expiresAt is a real date",
      operationId: "issueLoginTicket" as Op,
      status: 200,
      body: { requestId: "r", data: { ...ticket, expiresAt: "2026-02-30T09:31:00Z" } },
      pointer: "/data/expiresAt",
    },
    {
      rule: "LoginTicket loginUrl carries the ticket in the fragment",
      operationId: "issueLoginTicket" as Op,
      status: 200,
      body: { requestId: "r", data: { ...ticket, loginUrl: "https://w.example/w/x?login_ticket=lt_1" } },
      pointer: "/data/loginUrl",
    },
    {
      rule: "LoginTicket loginUrl is a URI",
      operationId: "issueLoginTicket" as Op,
      status: 200,
      body: { requestId: "r", data: { ...ticket, loginUrl: "not a uri #login_ticket=x" } },
      pointer: "/data/loginUrl",
    },
    {
      rule: "Viewer viewer phone null is allowed but never absent",
      operationId: "upsertViewer" as Op,
      status: 200,
      body: { requestId: "r", data: { created: true, viewer: { uid: 10001, externalUserId: "a", displayName: null } } },
      pointer: "/data/viewer/phone",
    },
    {
      rule: "queryViewerWatch items is always present",
      operationId: "queryViewerWatch" as Op,
      status: 200,
      body: { requestId: "r", data: {} },
      pointer: "/data/items",
    },
  ])("$rule -> invalid at $pointer", ({ operationId, status, body, pointer }) => {
    const result = validateResponse(operationId, status, body);
    expect(result.valid).toBe(false);
    if (!result.valid) expect(result.errors.map((error) => error.pointer)).toContain(pointer);
  });

  it("a status the operation does not document is invalid", () => {
    expect(
      validateResponse("upsertViewer", 404, { requestId: "r", error: { code: "WEBINAR_NOT_FOUND", message: "x" } }),
    ).toEqual({
      valid: false,
      errors: [{ pointer: "", rule: "status", message: "upsertViewer does not document status 404" }],
    });
  });

  it("an unknown operation id is invalid, not a crash", () => {
    expect(validateResponse("deleteViewer" as Op, 200, {}).valid).toBe(false);
  });
});
