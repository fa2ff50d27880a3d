import { describe, expect, it } from "vitest";
import { retryAfterMs } from "./retry-after";

const now = Date.parse("Sat, 21 Nov 2026 14:00:00 GMT");

describe("retryAfterMs", () => {
  it.each([
    { rule: "RFC 9110 delay-seconds", value: "3", expected: 3000 },
    { rule: "delay-seconds 0", value: "0", expected: 0 },
    { rule: "surrounding whitespace is ignored", value: " 2 ", expected: 2000 },
    {
      rule: "RFC 9110 IMF-fixdate, read against the server's now",
      value: "Sat, 21 Nov 2026 14:00:05 GMT",
      expected: 5000,
    },
    { rule: "a date in the past means now", value: "Sat, 21 Nov 2026 13:59:00 GMT", expected: 0 },
    { rule: "absent header", value: null, expected: undefined },
    { rule: "a negative number is malformed", value: "-1", expected: undefined },
    { rule: "a fraction is malformed", value: "1.5", expected: undefined },
    { rule: "garbage is malformed", value: "soon", expected: undefined },
    { rule: "empty value is malformed", value: "", expected: undefined },
  ])("$rule: $value -> $expected", ({ value, expected }) => {
    expect(retryAfterMs(value, now)).toBe(expected);
  });
});
