/**
 * admin-openapi.yaml is authoritative: the checked-in validators are generated from it (drift check), every
 * request example in it passes the server's body check, the admin routes are exactly its operations, and the
 * facts it shares with the Open API spec (UID range, ticketCode shape) agree with @org/webinar-types.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { limits } from "@org/webinar-types";
import { adminDocumentSha256, adminOperations } from "../src/admin/admin-validators.gen.js";
import { checkBody, type AdminOperationId } from "../src/admin/body-check";
import { adminRoutes } from "../src/admin/routes";
import { createAdminAjv, loadAdminDocument } from "../scripts/admin-document";
import { GENERATED_FILES, renderAdminValidators } from "../scripts/render-admin-validators";

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const admin = loadAdminDocument();
const document = admin.document as Json;

describe("admin-openapi.yaml", () => {
  it("admin-validators.gen.js and .d.ts are up to date (run `pnpm --filter @org/webinar-server generate`)", () => {
    const rendered = renderAdminValidators(admin);
    expect(readFileSync(GENERATED_FILES.module, "utf8")).toBe(rendered.module);
    expect(readFileSync(GENERATED_FILES.declarations, "utf8")).toBe(rendered.declarations);
    expect(adminDocumentSha256).toBe(admin.sha256);
  });

  it("is OpenAPI 3.1 with the contract's ten operations, then the ones added after it", () => {
    expect(document.openapi).toBe("3.1.0");
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
    ]);
    expect(adminRoutes().map((route) => route.operationId)).toEqual(Object.keys(adminOperations));
  });

  it("every request example is valid for its schema (ajv compiled at run time) and passes the body check", () => {
    const ajv = createAdminAjv();
    for (const { operationId, method, path, bodySchema } of admin.operations) {
      const example: unknown =
        document.paths[path][method.toLowerCase()].requestBody.content["application/json"].example;
      expect(example, `${method} ${path} has an example`).toBeDefined();
      const validate = ajv.compile(bodySchema);
      expect(validate(example) ? [] : validate.errors, `${method} ${path}`).toEqual([]);
      expect(checkBody(operationId as AdminOperationId, example), `${method} ${path}`).toEqual([]);
    }
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
      [{ pointer: "/a~1b", rule: "additionalProperties", message: "is not an allowed property" }],
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
      [{ pointer: "/terms/1", rule: "maxLength", message: "must have at most 80 characters" }],
    ],
    ["pattern", "createMerchant", { name: " " }, [{ pointer: "/name", rule: "pattern", message: "must match \\S" }]],
    [
      "no coercion: a numeric string is no integer",
      "importPlaybackSession",
      { subject: { uid: 10000 }, mode: "LIVE", watchSeconds: "1" },
      [{ pointer: "/watchSeconds", rule: "type", message: "must be integer" }],
    ],
    [
      "minimum",
      "importPlaybackSession",
      { subject: { uid: 9999 }, mode: "LIVE", watchSeconds: 1 },
      [{ pointer: "/subject", rule: "oneOf", message: "must match exactly one of the allowed shapes" }],
    ],
    [
      "oneOf: only the oneOf issue, not each alternative's",
      "importPlaybackSession",
      { subject: { uid: 10000, anonymousId: "a" }, mode: "LIVE", watchSeconds: 1 },
      [{ pointer: "/subject", rule: "oneOf", message: "must match exactly one of the allowed shapes" }],
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
  ])("checkBody: %s", (_label, operationId, body, issues) => {
    expect(checkBody(operationId as AdminOperationId, body)).toEqual(issues);
  });

  it("shares the Open API's UID range and ticketCode shape", () => {
    const schemas = document.components.schemas as Json;
    expect(schemas.RegisteredSubject.properties.uid).toMatchObject({ minimum: limits.uidMin, maximum: limits.uidMax });
    const spec = readFileSync(new URL("../../../spec/openapi.yaml", import.meta.url), "utf8");
    expect(spec).toContain(`pattern: '${schemas.TicketCode.pattern}'`);
  });

  it("lists every admin error code the server can answer", async () => {
    const { errorStatus } = await import("../src/errors");
    for (const code of document.components.schemas.AdminErrorCode.enum as string[])
      expect(errorStatus[code as keyof typeof errorStatus]).toBeGreaterThan(0);
  });
});
