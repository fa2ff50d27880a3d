/**
 * Whole-number options (`--page-size`, `--timeout-ms`...): decimal digits only, within JavaScript's safe integers, at
 * least 0 or at least 1; anything else is a usage error naming the option and the value given.
 */
import { describe, expect, it } from "vitest";
import { integerOption } from "./integer-option";
import { UsageError } from "./usage-error";

describe("integerOption", () => {
  const accepted: Array<{ name: string; value: string; least?: 0 | 1; number: number }> = [
    { name: "zero, when zero is allowed", value: "0", number: 0 },
    { name: "a positive number", value: "200", least: 1, number: 200 },
    { name: "leading zeros", value: "007", number: 7 },
    { name: "the largest safe integer", value: "9007199254740991", number: Number.MAX_SAFE_INTEGER },
  ];
  for (const { name, value, least, number } of accepted) {
    it(`accepts ${name}`, () => {
      expect(integerOption("page-size", value, least)).toBe(number);
    });
  }

  const refused: Array<{ name: string; value: string; least?: 0 | 1; message: string }> = [
    { name: "zero where a positive number is needed", value: "0", least: 1, message: "must be a positive number" },
    { name: "a negative number", value: "-1", message: "must be a whole number" },
    { name: "a sign", value: "+1", message: "must be a whole number" },
    { name: "an exponent", value: "1e3", message: "must be a whole number" },
    { name: "a fraction", value: "1.5", message: "must be a whole number" },
    { name: "spaces", value: " 1", message: "must be a whole number" },
    { name: "an empty value", value: "", message: "must be a whole number" },
    { name: "beyond the safe integers", value: "9007199254740992", message: "must be a whole number" },
  ];
  for (const { name, value, least, message } of refused) {
    it(`refuses ${name}`, () => {
      const read = () => integerOption("page-size", value, least);
      expect(read).toThrow(UsageError);
      expect(read).toThrow(`--page-size ${message}, got ${JSON.stringify(value)}`);
    });
  }
});
