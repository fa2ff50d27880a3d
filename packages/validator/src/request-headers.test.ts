import { describe, expect, it } from "vitest";
import { headerValues, singleHeader, type RequestHeaders } from "./request-headers";

const forms: Array<[string, (pairs: Array<[string, string]>) => RequestHeaders]> = [
  ["raw pairs", (pairs) => pairs],
  [
    "a headersDistinct record",
    (pairs) => {
      const record: Record<string, string[]> = {};
      for (const [name, value] of pairs) (record[name.toLowerCase()] ??= []).push(value);
      return record;
    },
  ],
  [
    "a Web Headers (repeats joined with ', ')",
    (pairs) => {
      const headers = new Headers();
      for (const [name, value] of pairs) headers.append(name, value);
      return headers;
    },
  ],
  [
    "a Node req.headers record (repeats joined with ', ')",
    (pairs) => {
      const record: Record<string, string> = {};
      for (const [name, value] of pairs) {
        const key = name.toLowerCase();
        record[key] = record[key] === undefined ? value : `${record[key]}, ${value}`;
      }
      return record;
    },
  ],
];

describe.each(forms)("singleHeader over %s", (_form, make) => {
  it.each([
    { rule: "Signing requests present once", pairs: [["X-Nonce", "abc"]], expected: "abc" },
    { rule: "header names are case-insensitive", pairs: [["x-NONCE", "abc"]], expected: "abc" },
    { rule: "Signing requests missing", pairs: [["X-Other", "abc"]], expected: { problem: "missing" } },
    { rule: "Signing requests empty counts as missing", pairs: [["X-Nonce", ""]], expected: { problem: "missing" } },
    {
      rule: "Signing requests repeated with the same value",
      pairs: [
        ["X-Nonce", "abc"],
        ["x-nonce", "abc"],
      ],
      expected: { problem: "repeated" },
    },
    {
      rule: "Signing requests repeated with different values",
      pairs: [
        ["X-Nonce", "abc"],
        ["X-Nonce", "def"],
      ],
      expected: { problem: "repeated" },
    },
    {
      rule: "Signing requests a comma-joined value is a repetition",
      pairs: [["X-Nonce", "abc,def"]],
      expected: { problem: "repeated" },
    },
  ] as const)("$rule", ({ pairs, expected }) => {
    expect(singleHeader(make(pairs.map(([name, value]) => [name, value])), "x-nonce")).toEqual(expected);
  });
});

describe("headerValues", () => {
  it("raw pairs keep every value in order", () => {
    expect(
      headerValues(
        [
          ["Content-Encoding", "gzip"],
          ["content-encoding", "identity"],
        ],
        "content-encoding",
      ),
    ).toEqual(["gzip", "identity"]);
  });
  it("an absent header has no values", () => {
    expect(headerValues({}, "origin")).toEqual([]);
    expect(headerValues(new Headers(), "origin")).toEqual([]);
  });
});
