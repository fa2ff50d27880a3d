import { describe, expect, it } from "vitest";
import { errorCatalog } from "@org/webinar-types";
import { errorStatus, ServiceError } from "./errors";

describe("error table", () => {
  it("maps every Open API code to the spec's status", () => {
    for (const [code, { status }] of Object.entries(errorCatalog))
      expect(errorStatus[code as keyof typeof errorStatus]).toBe(status);
  });

  it("ServiceError takes its status from the table unless the spec overrides it (404/405 REQUEST_INVALID)", () => {
    expect(new ServiceError("VIEWER_UID_EXHAUSTED", "x").status).toBe(409);
    expect(new ServiceError("REQUEST_INVALID", "x", undefined, 405).status).toBe(405);
  });
});
