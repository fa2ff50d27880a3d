import { describe, expect, it } from "vitest";
import { maskPhone } from "./phone-mask";

describe("maskPhone: an ANALYST's view of a phone number", () => {
  it.each([
    ["a mobile number keeps its first 3 and last 4 digits", "13800000000", "138****0000"],
    ["another one", "15912345678", "159****5678"],
    ["a shorter text keeps only its last 4", "1234567", "****4567"],
  ])("%s", (_rule, phone, expected) => {
    expect(maskPhone(phone)).toBe(expected);
  });
});
