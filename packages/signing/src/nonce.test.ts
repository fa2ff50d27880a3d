import { limits } from "@org/webinar-types";
import { describe, expect, it } from "vitest";
import { createNonce, isValidNonce } from "./nonce";

describe("nonce rule follows x-limits", () => {
  const nonceOf = (length: number) => "a".repeat(length);
  it.each([
    { rule: "Limits: nonce of nonceMinLength characters is valid", length: limits.nonceMinLength, valid: true },
    {
      rule: "Limits: nonce one shorter than nonceMinLength is invalid",
      length: limits.nonceMinLength - 1,
      valid: false,
    },
    { rule: "Limits: nonce of nonceMaxLength characters is valid", length: limits.nonceMaxLength, valid: true },
    {
      rule: "Limits: nonce one longer than nonceMaxLength is invalid",
      length: limits.nonceMaxLength + 1,
      valid: false,
    },
  ])("$rule", ({ length, valid }) => {
    expect(isValidNonce(nonceOf(length))).toBe(valid);
  });
});

describe("createNonce", () => {
  it.each([
    {
      rule: "Signing requests: recommended form: 32 lowercase hex characters",
      run: () => expect(createNonce()).toMatch(/^[0-9a-f]{32}$/),
    },
    {
      rule: "Signing requests: fresh per request: 1000 calls give 1000 different nonces",
      run: () => expect(new Set(Array.from({ length: 1000 }, () => createNonce())).size).toBe(1000),
    },
    {
      rule: "Signing requests: 16 bytes of the injected random source, hex-encoded in order",
      run: () => {
        const nonce = createNonce((bytes) => {
          for (let index = 0; index < bytes.length; index++) bytes[index] = index * 17;
        });
        expect(nonce).toBe("00112233445566778899aabbccddeeff");
      },
    },
    {
      rule: "Signing requests: the random source is asked for exactly 16 bytes",
      run: () => {
        let requested = -1;
        createNonce((bytes) => (requested = bytes.length));
        expect(requested).toBe(16);
      },
    },
    {
      rule: "Signing requests: every created nonce passes isValidNonce",
      run: () => expect(Array.from({ length: 100 }, () => createNonce()).every(isValidNonce)).toBe(true),
    },
  ])("$rule", ({ run }) => run());
});

describe("isValidNonce", () => {
  it.each([
    { rule: "Signing requests: 32 hex characters", value: "3f9c2a7d51e84b06a1c9e2f47d8b3a65", valid: true },
    { rule: "Limits: minimum length 16", value: "a".repeat(16), valid: true },
    { rule: "Limits: below minimum length (15)", value: "a".repeat(15), valid: false },
    { rule: "Limits: maximum length 128", value: "Z".repeat(128), valid: true },
    { rule: "Limits: above maximum length (129)", value: "Z".repeat(129), valid: false },
    { rule: "Signing requests: A-Z a-z 0-9 _ - are allowed", value: "Ab0_-Ab0_-Ab0_-Ab0_-", valid: true },
    { rule: "Signing requests: Base64 characters + / = are not allowed", value: "abcdefghijklmno+/=", valid: false },
    { rule: "Signing requests: a dot is not allowed", value: "abcdefghijklmnop.", valid: false },
    { rule: "Signing requests: whitespace is not allowed", value: "abcdefgh ijklmnop", valid: false },
    { rule: "Signing requests: a trailing line feed is not allowed", value: "abcdefghijklmnop\n", valid: false },
    { rule: "Signing requests: non-ASCII letters are not allowed", value: "abcdefghijklmnopé", valid: false },
    {
      rule: "Signing requests: a UUID with hyphens is allowed",
      value: "0b7c4a2e-9d1f-4c3b-8e6a-5f2d1c0b9a87",
      valid: true,
    },
    { rule: "empty string", value: "", valid: false },
    { rule: "a non-string is not a nonce", value: 1234567890123456, valid: false },
  ])("$rule -> $valid", ({ value, valid }) => {
    expect(isValidNonce(value)).toBe(valid);
  });
});
