import { describe, expect, it } from "vitest";
import { isJsonContentType } from "./content-type";

describe("isJsonContentType (Signing requests: Content-Type application/json, charset=utf-8 allowed)", () => {
  it.each([
    ["application/json", true],
    ["application/json; charset=utf-8", true],
    ["Application/JSON;charset=UTF-8", true],
    ['application/json; charset="utf-8"', true],
    ["application/json ; charset = utf-8", true],
    ["application/json; charset=latin1", false],
    ["application/json; boundary=x", false],
    ["application/json-patch+json", false],
    ["application/jsonx", false],
    ["text/plain", false],
    ["", false],
  ])("%j -> %s", (value, expected) => {
    expect(isJsonContentType(value)).toBe(expected);
  });
});
