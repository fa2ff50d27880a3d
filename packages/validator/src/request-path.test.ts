import { operations } from "@org/webinar-types";
import { describe, expect, it } from "vitest";
import { createOperationPathMatcher, matchOperationPath } from "./request-path";

const UPSERT = operations.upsertViewer.path;

describe("matchOperationPath (the operations path exactly as given)", () => {
  it.each(Object.entries(operations))(
    "the operations %s at its exact path is that operation",
    (operationId, operation) => {
      expect(matchOperationPath(operation.path)).toEqual({ kind: "operation", operationId });
    },
  );

  it.each([
    ["a trailing slash", `${UPSERT}/`],
    ["two trailing slashes", `${UPSERT}//`],
    ["a query string", `${UPSERT}?a=1`],
    ["an empty query string", `${UPSERT}?`],
    ["a fragment", `${UPSERT}#x`],
    ["upper case", UPSERT.toUpperCase()],
    ["mixed case", "/Api/V1/Open/Viewers/Upsert"],
    ["a percent-encoded letter", UPSERT.replace("u", "%75")],
    ["a lowercase percent-encoded slash", UPSERT.replace("viewers/", "viewers%2f")],
    ["double percent-encoding", UPSERT.replace("upsert", "%2575psert")],
    ["a dot segment", UPSERT.replace("/open/", "/open/./")],
    ["a dot-dot segment", UPSERT.replace("/open/", "/open/x/../")],
    ["an encoded dot-dot segment", UPSERT.replace("/open/", "/open/x/%2e%2e/")],
    ["a double slash", UPSERT.replace("/open/", "/open//")],
    ["a leading double slash", `/${UPSERT}`],
    ["backslashes", UPSERT.replaceAll("/", "\\")],
    ["the absolute form", `http://127.0.0.1:8080${UPSERT}`],
  ])("the operations: Signing requests %s -> non-canonical (401)", (_what, path) => {
    expect(matchOperationPath(path)).toEqual({ kind: "nonCanonical", operationId: "upsertViewer" });
  });

  it.each([
    ["a prefix of an operation path", "/api/v1/open/viewers"],
    ["another version", UPSERT.replace("v1", "v2")],
    ["an operation path with a suffix", `${UPSERT}x`],
    ["the root", "/"],
    ["empty", ""],
    ["a malformed escape", "/api/v1/open/viewers/%E0%A4%A"],
    ["asterisk form", "*"],
  ])("the operations: %s -> no operation (404)", (_what, path) => {
    expect(matchOperationPath(path)).toEqual({ kind: "unknown" });
  });
});

describe("createOperationPathMatcher (a deployment under a base path)", () => {
  const match = createOperationPathMatcher("/webinar");
  it.each([
    [`/webinar${UPSERT}`, { kind: "operation", operationId: "upsertViewer" }],
    [`/webinar${UPSERT}/`, { kind: "nonCanonical", operationId: "upsertViewer" }],
    [`/Webinar${UPSERT}`, { kind: "nonCanonical", operationId: "upsertViewer" }],
    [UPSERT, { kind: "unknown" }],
  ])("%s", (path, expected) => {
    expect(match(path)).toEqual(expected);
  });

  it.each(["webinar", "/webinar/", "/web inar", "/webinar?x=1"])("rejects the base path %j", (basePath) => {
    expect(() => createOperationPathMatcher(basePath)).toThrow(TypeError);
  });
});
