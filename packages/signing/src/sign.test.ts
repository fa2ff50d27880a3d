import { describe, expect, it } from "vitest";
import { negativeVectors, positiveVectors } from "../../../spec/test-vectors/signing-vectors";
import type { CryptoBackend } from "./crypto-backend";
import { cachedKeyCount, createSigner, KEY_CACHE_LIMIT, sign, webSign } from "./sign";

const canonical = positiveVectors[0]!.canonical;

const backends: CryptoBackend[] = ["node", "web"];
const everyBackend = backends.flatMap((backend) => positiveVectors.map((vector) => ({ backend, vector, name: vector.name })));

describe("sign", () => {
  it.each(positiveVectors)("§5.2 reproduces the signature of vector: $name", async (vector) => {
    expect(await sign(vector.secret, vector.canonical)).toBe(vector.signature);
  });

  it.each(everyBackend)("§5.2 createSigner($backend) reproduces hash and signature of vector: $name", async ({ backend, vector }) => {
    const signer = createSigner(vector.secret, backend);
    expect(signer.backend).toBe(backend);
    expect(await signer.hashBody(vector.body)).toBe(vector.bodyHash);
    expect(await signer.sign(vector.canonical)).toBe(vector.signature);
  });

  it("auto picks node:crypto on Node", () => expect(createSigner("s3cret").backend).toBe("node"));

  it.each(positiveVectors)("§5.2 createSigner(node).sync reproduces hash and signature of vector without promises: $name", (vector) => {
    const sync = createSigner(vector.secret, "node").sync!;
    expect(sync.hashBody(vector.body)).toBe(vector.bodyHash);
    expect(sync.sign(vector.canonical)).toBe(vector.signature);
  });

  it("a Web Crypto signer has no synchronous methods", () => expect(createSigner("s3cret", "web").sync).toBeUndefined());

  it.each(negativeVectors)("§5.2 reproduces expectedSignature of negative vector: $name", async (vector) => {
    expect(await sign(vector.secret, vector.canonical)).toBe(vector.expectedSignature);
  });

  it.each([
    {
      rule: "§5.2 step 4 output is 64 lowercase hex characters",
      run: async () => expect(await sign("s3cret", canonical)).toMatch(/^[0-9a-f]{64}$/),
    },
    {
      rule: "§5.2 step 4 RFC 4231 test case 2 (key 'Jefe')",
      run: async () =>
        expect(await sign("Jefe", "what do ya want for nothing?")).toBe("5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"),
    },
    {
      rule: "§5.2 step 4 a hex-looking secret is used as text, not decoded",
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
        expect(() => createSigner("")).toThrow(TypeError);
      },
    },
    {
      rule: "the key cache stays bounded and keeps signing correctly past its limit",
      run: async () => {
        const secrets = Array.from({ length: KEY_CACHE_LIMIT * 3 }, (_, index) => `merchant-secret-${index}`);
        const first = await Promise.all(secrets.map((secret) => webSign(secret, canonical)));
        expect(cachedKeyCount()).toBeLessThanOrEqual(KEY_CACHE_LIMIT);
        // Evicted and cached secrets alike still give the same signatures.
        const second = await Promise.all(secrets.map((secret) => webSign(secret, canonical)));
        expect(second).toEqual(first);
        expect(new Set(first).size).toBe(secrets.length);
      },
    },
  ])("$rule", async ({ run }) => run());
});
