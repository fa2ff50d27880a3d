import { describe, expect, it } from "vitest";
import { negativeVectors, positiveVectors } from "@org/webinar-spec/test-vectors/signing-vectors";
import { backends } from "../test/backends";
import { canonicalString } from "./canonical";
import { createSigner, sign } from "./sign";

const canonical = positiveVectors[0]!.canonical;

describe("createSigner on each backend", () => {
  it("auto picks node:crypto on Node", () => expect(createSigner("s3cret").backend).toBe("node"));

  it.each(backends)("%s: one signer signs many requests, one after another and concurrently", async (backend) => {
    const { secret } = positiveVectors[0]!;
    const sameSecret = positiveVectors.filter((vector) => vector.secret === secret);
    const signer = createSigner(secret, backend);
    expect(await Promise.all(sameSecret.map((vector) => signer.sign(vector.canonical)))).toEqual(
      sameSecret.map((vector) => vector.signature),
    );
    for (const vector of sameSecret) expect(await signer.sign(vector.canonical)).toBe(vector.signature);
  });

  // Beyond the vectors: both backends agree on generated inputs (secrets and bodies with every kind of UTF-8,
  // secrets longer than a SHA-256 block, a lone surrogate, which both encode as U+FFFD).
  const alphabet = ["a", "Z", "0", " ", "\n", "\\", '"', "é", "张", "🎉", "\u{10FFFF}", "\u0000", "\ud800"];
  const generated = Array.from({ length: 25 }, (_, index) => {
    const pick = (length: number, salt: number) =>
      Array.from({ length }, (_, position) => alphabet[(index * 7 + position * 13 + salt) % alphabet.length]).join("");
    return { name: `generated #${index}`, secret: `k${pick(index * 3 + 1, 3)}`, body: pick(index * 11, 5) };
  });
  it.each(generated)("node:crypto and Web Crypto agree: $name", async ({ secret, body }) => {
    const [node, web] = [createSigner(secret, "node"), createSigner(secret, "web")];
    const hash = await web.hashBody(body);
    expect(await node.hashBody(body)).toBe(hash);
    const signed = canonicalString({
      apiKey: "wk_test_x",
      path: "/api/v1/open/watch-data/overview",
      timestamp: "1767225600",
      nonce: "0123456789abcdef",
      bodyHash: hash,
    });
    const signature = await web.sign(signed);
    expect(await node.sign(signed)).toBe(signature);
    expect(await node.verify(signed, signature)).toBe(true);
  });
});

describe("sign", () => {
  it.each([
    {
      rule: "Signing requests step 4: output is 64 lowercase hex characters",
      run: async () => expect(await sign("s3cret", canonical)).toMatch(/^[0-9a-f]{64}$/),
    },
    {
      rule: "Signing requests step 4: RFC 4231 test case 2 (key 'Jefe') on both backends",
      run: async () => {
        for (const backend of backends) {
          expect(await createSigner("Jefe", backend).sign("what do ya want for nothing?")).toBe(
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843",
          );
        }
      },
    },
    {
      rule: "Signing requests step 4: a hex-looking secret is used as text, not decoded",
      run: async () => {
        const hexSecret = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08";
        const decoded = negativeVectors.find((vector) => vector.name.startsWith("secret hex-decoded"))!;
        expect(await sign(hexSecret, decoded.canonical)).toBe(decoded.expectedSignature);
        expect(await sign(hexSecret, decoded.canonical)).not.toBe(decoded.signature);
      },
    },
    {
      rule: "different secrets give different signatures",
      run: async () => expect(await sign("secret-a", canonical)).not.toBe(await sign("secret-b", canonical)),
    },
    {
      rule: "an empty secret throws a TypeError (an unset environment variable)",
      run: async () => {
        await expect(sign("", canonical)).rejects.toThrow(TypeError);
        for (const backend of backends) expect(() => createSigner("", backend)).toThrow(TypeError);
      },
    },
  ])("$rule", async ({ run }) => run());
});
