import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { malformedSignatures } from "../test/malformed-signatures";
import { negativeVectors, positiveVectors } from "../../../spec/test-vectors/signing-vectors";
import { bodyHash } from "./body-hash";
import { canonicalString } from "./canonical";
import { bodyHashSync, signSync, verifySync } from "./node";
import { sign } from "./sign";

describe("node:crypto path (@org/webinar-signing/node)", () => {
  it.each(positiveVectors)("§5.2 reproduces bodyHash, signature and verification of vector: $name", (vector) => {
    expect(bodyHashSync(vector.body)).toBe(vector.bodyHash);
    expect(bodyHashSync(new TextEncoder().encode(vector.body))).toBe(vector.bodyHash);
    expect(bodyHashSync(Buffer.from(vector.body, "utf8"))).toBe(vector.bodyHash);
    expect(signSync(vector.secret, vector.canonical)).toBe(vector.signature);
    expect(verifySync(vector.secret, vector.canonical, vector.signature)).toBe(true);
  });

  it.each(negativeVectors)("§5.2 rejects the mistake and accepts the correct signature: $name", (vector) => {
    expect(bodyHashSync(vector.body)).toBe(vector.bodyHash);
    expect(signSync(vector.secret, vector.canonical)).toBe(vector.expectedSignature);
    expect(verifySync(vector.secret, vector.canonical, vector.signature)).toBe(false);
    expect(verifySync(vector.secret, vector.canonical, vector.expectedSignature)).toBe(true);
  });

  it("keeps signing correctly with more secrets than it keeps keys for, each secret with its own key", () => {
    const canonical = positiveVectors[0]!.canonical;
    const secrets = Array.from({ length: 150 }, (_, index) => `secret-${index}-密钥`);
    // Twice round, so the second pass meets secrets whose keys were evicted, then re-made.
    for (const secret of [...secrets, ...secrets]) {
      const expected = createHmac("sha256", Buffer.from(secret, "utf8")).update(canonical, "utf8").digest("hex");
      expect(signSync(secret, canonical)).toBe(expected);
      expect(verifySync(secret, canonical, expected)).toBe(true);
    }
    expect(signSync(secrets[0]!, canonical)).not.toBe(signSync(secrets[1]!, canonical));
  });

  it.each(malformedSignatures)("rejects a malformed signature: $rule", ({ signature }) => {
    const vector = positiveVectors[0]!;
    expect(verifySync(vector.secret, vector.canonical, signature)).toBe(false);
  });

  it.each([
    {
      rule: "§5.2 a Uint8Array view is hashed over its window only",
      run: () => expect(bodyHashSync(new TextEncoder().encode("xx{}yy").subarray(2, 4))).toBe(bodyHashSync("{}")),
    },
    {
      rule: "§5.2 an ArrayBuffer is hashed as its bytes",
      run: () => expect(bodyHashSync(new TextEncoder().encode("{}").buffer)).toBe(bodyHashSync("{}")),
    },
    {
      rule: "an empty secret throws a TypeError",
      run: () => {
        expect(() => signSync("", "x")).toThrow(TypeError);
        expect(() => verifySync("", "x", "0".repeat(64))).toThrow(TypeError);
      },
    },
    {
      rule: "a signature of another canonical string is rejected",
      run: () => {
        const vector = positiveVectors[0]!;
        expect(verifySync(vector.secret, `${vector.canonical}\n`, vector.signature)).toBe(false);
      },
    },
  ])("$rule", ({ run }) => run());

  // Beyond the vectors: both paths agree on generated inputs (random secrets, bodies with every kind of UTF-8).
  const alphabet = ["a", "Z", "0", " ", "\n", "\\", '"', "é", "张", "🎉", "\u{10FFFF}", "\u0000"];
  const generated = Array.from({ length: 25 }, (_, index) => {
    const pick = (length: number, salt: number) =>
      Array.from({ length }, (_, position) => alphabet[(index * 7 + position * 13 + salt) % alphabet.length]).join("");
    return { name: `generated #${index}`, secret: `k${pick(index + 1, 3)}`, body: pick(index * 11, 5) };
  });
  it.each(generated)("Web Crypto and node:crypto agree: $name", async ({ secret, body }) => {
    const hash = await bodyHash(body);
    expect(bodyHashSync(body)).toBe(hash);
    const canonical = canonicalString({ apiKey: "wk_test_x", path: "/api/v1/open/watch-data/overview", timestamp: "1767225600", nonce: "0123456789abcdef", bodyHash: hash });
    const signature = await sign(secret, canonical);
    expect(signSync(secret, canonical)).toBe(signature);
    expect(verifySync(secret, canonical, signature)).toBe(true);
  });
});
