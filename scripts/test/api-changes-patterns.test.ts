/**
 * Text rules (a `pattern` and `x-no-lone-surrogates`) compared by the strings they accept
 * (tools/build/src/api-changes/patterns.ts): exact for patterns of one structure, "changed" when the checker cannot
 * tell.
 */
import { describe, expect, it } from "vitest";
import { compareTextRules, type TextRule, tokenize } from "@org/webinar-build/api-changes";

const rule = (pattern?: string, noLoneSurrogates = false): TextRule => ({ pattern, noLoneSurrogates });
const FORMER_TEXT = "^[^\\p{Cc}\\p{Cs}\\u2028\\u2029]*$";
const PORTABLE_TEXT = "^[^\\x00-\\x1F\\x7F-\\x9F\u2028\u2029]*$";

describe("compareTextRules", () => {
  it.each([
    ["the same pattern", rule("^[a-z]+$"), rule("^[a-z]+$"), "same"],
    ["a class that lost characters", rule("^[a-z_]+$"), rule("^[a-z]+$"), "narrowed"],
    ["a class that gained characters", rule("^[a-z]+$"), rule("^[a-z0-9]+$"), "widened"],
    ["one class lost, another gained", rule("^[a-z][0-9]$"), rule("^[a-y][0-9a]$"), "changed"],
    ["another structure", rule("^[a-z]+$"), rule("^[a-z]*$"), "changed"],
    ["a lookahead (not monotone in its atoms)", rule("^(?![a-z])[a-z0-9]+$"), rule("^(?![a-z])[a-z]+$"), "changed"],
    ["a pattern added", rule(), rule("^[a-z]+$"), "narrowed"],
    ["a pattern removed", rule("^[a-z]+$"), rule(), "widened"],
    ["lone surrogates refused, no pattern", rule(), rule(undefined, true), "narrowed"],
    ["lone surrogates accepted again, no pattern", rule(undefined, true), rule(), "widened"],
    [
      "the portable text rule with x-no-lone-surrogates, for the former \\p{Cc}\\p{Cs} rule",
      rule(FORMER_TEXT),
      rule(PORTABLE_TEXT, true),
      "same",
    ],
    ["the portable text rule without x-no-lone-surrogates", rule(FORMER_TEXT), rule(PORTABLE_TEXT), "widened"],
    [
      "the phone rule with its spaces spelled out, for [^\\S\\p{Cc}\\u2028\\u2029]",
      rule("^(?:1[3-9][0-9]{9}|[^\\S\\p{Cc}\\u2028\\u2029]*)$"),
      rule("^(?:1[3-9][0-9]{9}|[ \\xA0\u1680\u2000-\u200A\u202F\u205F\u3000\uFEFF]*)$"),
      "same",
    ],
    ["a named group is structure, its name is not", rule("^(?<a>x)$"), rule("^(?<b>x)$"), "same"],
  ] as const)("%s -> %s", (_name, before, after, relation) => {
    expect(compareTextRules(before, after)).toBe(relation);
  });
});

describe("tokenize", () => {
  it("splits a pattern into one-code-point atoms and structure", () => {
    expect(tokenize("^(?:1[3-9]\\d{9}|\\x41.)$")).toEqual([
      { atom: false, source: "^" },
      { atom: false, source: "(?:" },
      { atom: true, source: "1" },
      { atom: true, source: "[3-9]" },
      { atom: true, source: "\\d" },
      { atom: false, source: "{9}" },
      { atom: false, source: "|" },
      { atom: true, source: "\\x41" },
      { atom: true, source: "." },
      { atom: false, source: ")" },
      { atom: false, source: "$" },
    ]);
  });

  it("gives up on backreferences and lookbehinds", () => {
    expect(tokenize("(a)\\1")).toBeUndefined();
    expect(tokenize("(?<=a)b")).toBeUndefined();
  });
});
