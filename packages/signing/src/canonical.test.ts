import { describe, expect, it } from "vitest";
import { canonicalString, type CanonicalInput } from "./canonical";

const input: CanonicalInput = {
  apiKey: "wk_live_7Qm2x9Lp4Rt8Vb1N",
  path: "/api/v1/open/viewers/upsert",
  timestamp: "1767225600",
  nonce: "3f9c2a7d51e84b06a1c9e2f47d8b3a65",
  bodyHash: "93f367d8b3cb5ad87aed00c876dbefa425b1963b0dc7adca50cda75cfb082518",
};

describe("canonicalString", () => {
  it.each([
    {
      rule: "Signing requests: six lines in order: API key, POST, path, timestamp, nonce, bodyHash",
      check: () =>
        expect(canonicalString(input).split("\n")).toEqual([
          input.apiKey,
          "POST",
          input.path,
          input.timestamp,
          input.nonce,
          input.bodyHash,
        ]),
    },
    {
      rule: "Signing requests: no trailing line feed",
      check: () => expect(canonicalString(input).endsWith(input.bodyHash)).toBe(true),
    },
    {
      rule: "Signing requests: joined by a single line feed (no CR, no blank lines)",
      check: () =>
        expect(canonicalString(input)).toBe(
          `${input.apiKey}\nPOST\n${input.path}\n${input.timestamp}\n${input.nonce}\n${input.bodyHash}`,
        ),
    },
    {
      rule: "Signing requests: the method defaults to the literal POST",
      check: () => expect(canonicalString(input).split("\n")[1]).toBe("POST"),
    },
    {
      rule: "an explicit method is used verbatim (a server canonicalizes what it received)",
      check: () => expect(canonicalString({ ...input, method: "GET" }).split("\n")[1]).toBe("GET"),
    },
    {
      rule: "values are not trimmed, re-cased or encoded",
      check: () =>
        expect(
          canonicalString({ ...input, apiKey: " Key ", path: "/API/v1/%7Ex" })
            .split("\n")
            .slice(0, 3),
        ).toEqual([" Key ", "POST", "/API/v1/%7Ex"]),
    },
  ])("$rule", ({ check }) => check());

  it.each(["apiKey", "method", "path", "timestamp", "nonce", "bodyHash"] as const)(
    "Signing requests: one value per line: a line break in %s throws",
    (field) => {
      expect(() => canonicalString({ ...input, [field]: "a\nb" })).toThrow(TypeError);
      expect(() => canonicalString({ ...input, [field]: "a\rb" })).toThrow(TypeError);
    },
  );
});
