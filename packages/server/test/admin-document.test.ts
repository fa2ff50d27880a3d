/**
 * admin-openapi.yaml is authoritative: the checked-in validators are generated from it (drift check), every
 * request example in it passes the server's body check, the admin routes are exactly its operations, and the
 * facts it shares with the Open API spec (UID range, ticketCode shape) agree with @org/webinar-types.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { limits } from "@org/webinar-types";
import { adminOperations } from "../src/admin/admin-schemas.gen";
import { checkBody } from "../src/admin/body-check";
import { adminRoutes } from "../src/admin/routes";
import { ADMIN_DOCUMENT, adminOperationsOf, GENERATED_MODULE, renderFromDisk } from "../scripts/admin-schemas";
import { parseYamlSubset } from "../scripts/yaml-subset";

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const document = parseYamlSubset(readFileSync(ADMIN_DOCUMENT, "utf8")) as Json;

describe("admin-openapi.yaml", () => {
  it("admin-schemas.gen.ts is up to date (run `pnpm --filter @org/webinar-server generate`)", () => {
    expect(readFileSync(GENERATED_MODULE, "utf8")).toBe(renderFromDisk());
  });

  it("is OpenAPI 3.1 with the contract's ten operations", () => {
    expect(document.openapi).toBe("3.1.0");
    const operations = adminOperationsOf(readFileSync(ADMIN_DOCUMENT, "utf8")).map((operation) => `${operation.method} ${operation.path}`);
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
    ]);
    expect(adminRoutes().map((route) => route.operationId)).toEqual(Object.keys(adminOperations));
  });

  it("every request example passes the body check", () => {
    for (const [path, item] of Object.entries(document.paths as Json)) {
      for (const [method, operation] of Object.entries(item as Json)) {
        const content = operation.requestBody.content["application/json"];
        expect(checkBody(adminOperations[operation.operationId as keyof typeof adminOperations].body, content.example), `${method} ${path}`).toEqual([]);
      }
    }
  });

  it("shares the Open API's UID range and ticketCode shape", () => {
    const schemas = document.components.schemas as Json;
    expect(schemas.RegisteredSubject.properties.uid).toMatchObject({ minimum: limits.uidMin, maximum: limits.uidMax });
    const spec = readFileSync(new URL("../../../spec/openapi.yaml", import.meta.url), "utf8");
    expect(spec).toContain(`pattern: '${schemas.TicketCode.pattern}'`);
  });

  it("lists every admin error code the server can answer", async () => {
    const { errorStatus } = await import("../src/errors");
    for (const code of document.components.schemas.AdminErrorCode.enum as string[]) expect(errorStatus[code as keyof typeof errorStatus]).toBeGreaterThan(0);
  });
});
