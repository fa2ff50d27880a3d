import { describe, expect, it } from "vitest";
import { backends } from "../test/backends";
import { malformedSignatures } from "../test/malformed-signatures";
import { positiveVectors } from "@org/webinar-spec/test-vectors/signing-vectors";
import { createSigner } from "./sign";
import { verify } from "./verify";

const vector = positiveVectors[0]!;

describe("verify", () => {
  it.each(malformedSignatures)("rejects a malformed signature on every backend: $rule", async ({ signature }) => {
    expect(await verify(vector.secret, vector.canonical, signature)).toBe(false);
    for (const backend of backends)
      expect(await createSigner(vector.secret, backend).verify(vector.canonical, signature)).toBe(false);
  });

  it.each([
    {
      rule: "Signing requests: a signature made with another secret is rejected",
      run: async () => expect(await verify(`${vector.secret}x`, vector.canonical, vector.signature)).toBe(false),
    },
    {
      rule: "Signing requests: a signature of another canonical string is rejected",
      run: async () => expect(await verify(vector.secret, `${vector.canonical}\n`, vector.signature)).toBe(false),
    },
    {
      rule: "a signature differing in its last character only is rejected",
      run: async () => {
        const last = vector.signature.at(-1) === "0" ? "1" : "0";
        expect(await verify(vector.secret, vector.canonical, `${vector.signature.slice(0, 63)}${last}`)).toBe(false);
      },
    },
    {
      rule: "a non-string signature (absent header read as undefined) is rejected, not thrown",
      run: async () =>
        expect(await verify(vector.secret, vector.canonical, undefined as unknown as string)).toBe(false),
    },
    {
      rule: "an empty secret throws a TypeError (configuration error, not a mismatch)",
      run: async () => expect(verify("", vector.canonical, vector.signature)).rejects.toThrow(TypeError),
    },
  ])("$rule", async ({ run }) => run());
});
