import { describe, expect, it } from "vitest";
import { operations, resolve, spec } from "./load-spec.ts";

const schemas = spec.components.schemas;

describe("the operations: the four operations", () => {
  it.each([
    ["upsertViewer", "/api/v1/open/viewers/upsert"],
    ["issueLoginTicket", "/api/v1/open/viewers/login-tickets"],
    ["getWatchOverview", "/api/v1/open/watch-data/overview"],
    ["queryViewerWatch", "/api/v1/open/watch-data/viewers/query"],
  ])("%s is POST %s and nothing else", (operationId, path) => {
    expect(Object.keys(spec.paths[path])).toEqual(["post"]);
    expect(spec.paths[path].post.operationId).toBe(operationId);
  });

  it("exactly four operations exist", () => expect(operations).toHaveLength(4));

  it("Signing requests: every operation requires all four signature headers together", () => {
    expect(spec.security).toEqual([{ ApiKey: [], Timestamp: [], Nonce: [], Signature: [] }]);
    const headers = Object.values(spec.components.securitySchemes).map((scheme: any) => [scheme.in, scheme.name]);
    expect(headers).toEqual([
      ["header", "X-API-Key"],
      ["header", "X-Timestamp"],
      ["header", "X-Nonce"],
      ["header", "X-Signature"],
    ]);
  });

  it("Conventions: every request object rejects unknown fields", () => {
    for (const [, , operation] of operations) {
      const schema = resolve(operation.requestBody.content["application/json"].schema);
      expect(schema.additionalProperties).toBe(false);
    }
  });

  it.each(operations)("%s documents a request example and an example for every response", (_id, _path, operation) => {
    expect(Object.keys(operation.requestBody.content["application/json"].examples ?? {})).not.toHaveLength(0);
    for (const response of Object.values(operation.responses)) {
      const examples = resolve(response).content["application/json"].examples;
      expect(Object.keys(examples ?? {})).not.toHaveLength(0);
    }
  });
});

describe("Errors and retries: errors", () => {
  const errorCode = schemas.ErrorCode;

  it("one ErrorCode enum holds all 18 codes, each with a status, a retry class and a description", () => {
    expect(errorCode.enum).toHaveLength(18);
    for (const key of ["x-httpStatus", "x-retry", "x-enumDescriptions"]) {
      expect(Object.keys(errorCode[key]).sort()).toEqual([...errorCode.enum].sort());
    }
  });

  it.each(operations)(
    "%s: each error example's code is listed in that response's x-error-codes",
    (_id, _path, operation) => {
      for (const [status, reference] of Object.entries(operation.responses)) {
        if (status === "200") continue;
        const response = resolve(reference);
        const codes: string[] = response["x-error-codes"];
        for (const code of codes) expect(errorCode["x-httpStatus"][code]).toBe(Number(status));
        const exampleCodes = Object.values(response.content["application/json"].examples).map(
          (example: any) => resolve(example).value.error.code,
        );
        expect(codes).toEqual(expect.arrayContaining(exampleCodes));
      }
    },
  );

  it("every code of the catalog is possible in at least one operation", () => {
    const used = new Set(
      operations.flatMap(([, , operation]) =>
        Object.entries(operation.responses)
          .filter(([status]) => status !== "200")
          .flatMap(([, response]) => resolve(response)["x-error-codes"] as string[]),
      ),
    );
    expect([...used].sort()).toEqual([...errorCode.enum].sort());
  });

  it.each([
    [
      "upsertViewer",
      ["VIEWER_IDENTITY_CONFLICT", "VIEWER_UID_EXHAUSTED", "CONTENT_SENSITIVE", "CONTENT_MODERATION_UNAVAILABLE"],
    ],
    [
      "issueLoginTicket",
      ["VIEWER_NOT_FOUND", "WEBINAR_NOT_FOUND", "PUBLIC_METADATA_UNAVAILABLE", "VIEWER_DOMAIN_UNAVAILABLE"],
    ],
    ["getWatchOverview", ["WEBINAR_NOT_FOUND", "WATCH_DATA_UNAVAILABLE"]],
    [
      "queryViewerWatch",
      ["WATCH_REQUEST_INVALID", "WEBINAR_NOT_FOUND", "WATCH_DATA_NOT_FINAL", "WATCH_DATA_UNAVAILABLE"],
    ],
  ])("Errors and retries: %s lists its operation-specific codes", (operationId, expected) => {
    const [, , operation] = operations.find(([id]) => id === operationId)!;
    const codes = Object.values(operation.responses).flatMap((response) => resolve(response)["x-error-codes"] ?? []);
    expect(codes).toEqual(expect.arrayContaining(expected));
    // Errors and retries common codes are possible everywhere.
    expect(codes).toEqual(
      expect.arrayContaining([
        "REQUEST_INVALID",
        "OPEN_API_UNAUTHORIZED",
        "ORIGIN_FORBIDDEN",
        "TENANT_SUSPENDED",
        "OPEN_API_REPLAYED",
        "INTERNAL_ERROR",
        "AUTH_DEPENDENCY_UNAVAILABLE",
      ]),
    );
  });
});

describe("the schemas: schema shapes", () => {
  it("Viewer: viewer phone and displayName are required and nullable", () => {
    expect(schemas.Viewer.required).toEqual(expect.arrayContaining(["uid", "externalUserId", "phone", "displayName"]));
    expect(schemas.Viewer.properties.phone.type).toEqual(["string", "null"]);
    expect(schemas.Viewer.properties.displayName.type).toEqual(["string", "null"]);
  });

  it("ViewerWatchRecord: fields that may be omitted are optional and not nullable", () => {
    const record = schemas.ViewerWatchRecord;
    for (const field of ["externalUserId", "phone", "displayName"]) {
      expect(record.required).not.toContain(field);
      expect(record.properties[field].type).toBe("string");
    }
    for (const field of ["dataUpdatedAt", "liveDataUpdatedAt", "replayDataUpdatedAt"]) {
      expect(schemas.WatchOverview.required).not.toContain(field);
    }
    expect(schemas.ViewerWatchPage.required).toEqual(["items"]);
  });

  it("upsertViewer: phone: null is not allowed in a request, displayName: null is", () => {
    expect(schemas.UpsertViewerRequest.properties.phone.type).toBe("string");
    expect(schemas.UpsertViewerRequest.properties.displayName.type).toEqual(["string", "null"]);
  });

  it("queryViewerWatch: playbackMode, sort and pageSize are required with no default", () => {
    const request = schemas.QueryViewerWatchRequest;
    expect(request.required).toEqual(expect.arrayContaining(["ticketCode", "playbackMode", "sort", "pageSize"]));
    for (const field of ["playbackMode", "sort", "pageSize"])
      expect(resolve(request.properties[field]).default).toBeUndefined();
  });
});

describe("the Errors and retries guide agrees with the ErrorCode catalog", () => {
  const guide: string = spec.tags.find((tag: { name: string }) => tag.name === "Errors and retries").description;
  const rows = [...guide.matchAll(/^\| `([A-Z_]+)` \| (\d{3}) \| (\w+) \|/gm)].map(([, code, status, retry]) => ({
    code,
    status,
    retry,
  }));
  const errorCode = spec.components.schemas.ErrorCode;

  it("lists every code once", () => expect(rows.map((row) => row.code).sort()).toEqual([...errorCode.enum].sort()));

  it.each(rows)(
    "Errors and retries: $code: status $status and retry $retry match x-httpStatus and x-retry",
    ({ code, status, retry }) => {
      expect(Number(status)).toBe(errorCode["x-httpStatus"][code!]);
      expect(retry === "no" ? "never" : retry).toBe(errorCode["x-retry"][code!]);
    },
  );
});
