import { describe, expect, it } from "vitest";
import { isUnixSeconds, unixTimestamp } from "./timestamp";

describe("unixTimestamp", () => {
  it.each([
    { rule: "Signing requests: whole seconds from milliseconds", now: 1767225600000, expected: "1767225600" },
    { rule: "Signing requests: truncated, not rounded", now: 1767225600999, expected: "1767225600" },
    { rule: "Signing requests: under one second is 0", now: 999, expected: "0" },
    { rule: "Signing requests: decimal, no exponent for large values", now: 4102444800000, expected: "4102444800" },
  ])("$rule: $now ms -> $expected", ({ now, expected }) => {
    expect(unixTimestamp(() => now)).toBe(expected);
  });

  it("Signing requests: defaults to the current time in seconds (not milliseconds)", () => {
    const before = Math.floor(Date.now() / 1000);
    const value = Number(unixTimestamp());
    expect(value).toBeGreaterThanOrEqual(before);
    expect(value).toBeLessThanOrEqual(Math.floor(Date.now() / 1000));
  });

  it.each([Number.NaN, Number.POSITIVE_INFINITY, -1])("a clock returning %s throws a RangeError", (now) => {
    expect(() => unixTimestamp(() => now)).toThrow(RangeError);
  });
});

describe("isUnixSeconds", () => {
  it.each([
    { rule: "Signing requests: seconds", value: "1767225600", valid: true },
    { rule: "Signing requests: zero", value: "0", valid: true },
    { rule: "Signing requests: milliseconds are rejected", value: "1767225600000", valid: false },
    { rule: "Signing requests: a fraction is rejected", value: "1767225600.5", valid: false },
    { rule: "Signing requests: a sign is rejected", value: "+1767225600", valid: false },
    { rule: "Signing requests: a leading zero is rejected", value: "01767225600", valid: false },
    { rule: "Signing requests: whitespace is rejected", value: " 1767225600", valid: false },
    { rule: "Signing requests: an RFC 3339 date is rejected", value: "2026-01-01T00:00:00Z", valid: false },
    { rule: "empty string", value: "", valid: false },
    { rule: "a number is not the header's string form", value: 1767225600, valid: false },
  ])("$rule: $value -> $valid", ({ value, valid }) => {
    expect(isUnixSeconds(value)).toBe(valid);
  });
});
