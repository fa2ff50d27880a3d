/**
 * admin-openapi.yaml is what the admin routes are: its operations are the routes, and the body check answers each
 * violation of its schemas as one `details.errors` entry worded like the Open API's. (What both of the server's
 * documents share, drift, examples and patterns, is tested in server-documents.test.ts.)
 */
import { describe, expect, it } from "vitest";
import { limits } from "@org/webinar-types";
import { adminBodyValidators, adminOperations, adminPatternMessages } from "@org/webinar-admin-contract/validators";
import { bodyChecker } from "../src/http/body-check";
import { loadServerDocument } from "../scripts/server-document";

const admin = loadServerDocument("admin");
const document = admin.document as Record<string, any>;
const checkBody = bodyChecker({ validators: adminBodyValidators, patternMessages: adminPatternMessages });

describe("admin-openapi.yaml", () => {
  it("has the contract's ten operations, then the ones added after it; the admin routes are exactly these", () => {
    const operations = admin.operations.map((operation) => `${operation.method} ${operation.path}`);
    expect(operations).toEqual([
      "POST /admin/v1/merchants",
      "POST /admin/v1/merchants/{merchantId}/status",
      "POST /admin/v1/merchants/{merchantId}/api-keys",
      "POST /admin/v1/api-keys/{apiKey}/revoke",
      "POST /admin/v1/merchants/{merchantId}/webinars",
      "POST /admin/v1/webinars/{ticketCode}/status",
      "POST /admin/v1/webinars/{ticketCode}/live",
      "POST /admin/v1/webinars/{ticketCode}/finalize",
      "POST /admin/v1/webinars/{ticketCode}/playback-sessions",
      "PUT /admin/v1/moderation/blocked-terms",
      "POST /admin/v1/webinars/{ticketCode}/video",
      "POST /admin/v1/merchants/{merchantId}/console-users",
      "GET /admin/v1/merchants/{merchantId}/console-users",
      "POST /admin/v1/merchants/{merchantId}/console-users/{userId}/remove",
    ]);
    // The admin app serves exactly the generated operation table (http/serve-operations.ts).
    expect(Object.values(adminOperations).map((route) => `${route.method} ${route.path}`)).toEqual(operations);
  });

  it.each([
    [
      "missing property: pointer at the property",
      "createMerchant",
      {},
      [{ pointer: "/name", rule: "required", message: "must have required property 'name'" }],
    ],
    [
      "unknown property: pointer at the property",
      "createApiKey",
      { "a/b": 1 },
      [
        {
          pointer: "/a~1b",
          rule: "additionalProperties",
          message: "is not a field of this operation (unknown fields are rejected)",
        },
      ],
    ],
    [
      "wrong type: type only, not also enum",
      "setMerchantStatus",
      { status: 5 },
      [{ pointer: "/status", rule: "type", message: "must be string" }],
    ],
    [
      "enum",
      "applyLiveAction",
      { action: "PAUSE" },
      [{ pointer: "/action", rule: "enum", message: 'must be one of "START", "END", "CANCEL", "FAIL"' }],
    ],
    [
      "length in code points: 80 emoji fit, 81 do not",
      "replaceBlockedTerms",
      { terms: ["😀".repeat(80), "😀".repeat(81)] },
      [{ pointer: "/terms/1", rule: "maxLength", message: "must NOT have more than 80 characters" }],
    ],
    [
      "pattern: in the words of its x-pattern-message",
      "createMerchant",
      { name: " " },
      [{ pointer: "/name", rule: "pattern", message: "must not be blank" }],
    ],
    [
      "no coercion: a numeric string is no integer",
      "importPlaybackSession",
      { subject: { uid: 10000 }, mode: "LIVE", watchSeconds: "1" },
      [{ pointer: "/watchSeconds", rule: "type", message: "must be integer" }],
    ],
    [
      "minimum inside a oneOf alternative: only the oneOf issue",
      "importPlaybackSession",
      { subject: { uid: 9999 }, mode: "LIVE", watchSeconds: 1 },
      [{ pointer: "/subject", rule: "oneOf", message: "must match exactly one schema in oneOf" }],
    ],
    [
      "oneOf: only the oneOf issue, not each alternative's",
      "importPlaybackSession",
      { subject: { uid: 10000, anonymousId: "a" }, mode: "LIVE", watchSeconds: 1 },
      [{ pointer: "/subject", rule: "oneOf", message: "must match exactly one schema in oneOf" }],
    ],
    [
      "every error is reported",
      "importPlaybackSession",
      { mode: "NIGHT", watchSeconds: -1 },
      [
        { pointer: "/subject", rule: "required", message: "must have required property 'subject'" },
        { pointer: "/mode", rule: "enum", message: 'must be one of "LIVE", "REPLAY"' },
        { pointer: "/watchSeconds", rule: "minimum", message: "must be >= 0" },
      ],
    ],
    ["a body that is no object", "setWebinarStatus", [], [{ pointer: "", rule: "type", message: "must be object" }]],
  ])("body check: %s", (_label, operationId, body, issues) => {
    expect(checkBody(operationId as keyof typeof adminBodyValidators, body)).toEqual(issues);
  });

  it("shares the Open API's UID range", () => {
    const schemas = document.components.schemas;
    expect(schemas.RegisteredSubject.properties.uid).toMatchObject({ minimum: limits.uidMin, maximum: limits.uidMax });
  });
});
