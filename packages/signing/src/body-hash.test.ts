import { describe, expect, it } from "vitest";
import { backends } from "../test/backends";
import { bodyHash, type RawBody } from "./body-hash";
import { createSigner } from "./sign";

const utf8 = (text: string) => new TextEncoder().encode(text);

// bodyHash itself (node:crypto on Node), and each backend forced through a signer.
const hashers: { name: string; bodyHash: (body: RawBody) => Promise<string> }[] = [
  { name: "bodyHash", bodyHash },
  ...backends.map((backend) => ({
    name: `createSigner(${backend}).hashBody`,
    bodyHash: createSigner("secret", backend).hashBody,
  })),
];

describe.each(hashers)("$name", ({ bodyHash }) => {
  // Expected values from `printf '%s' BODY | openssl dgst -sha256`.
  it.each([
    {
      rule: "Signing requests: SHA-256 of the empty body",
      body: "",
      expected: "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
    },
    {
      rule: "Signing requests: SHA-256 of `{}`",
      body: "{}",
      expected: "44136fa355b3678a1146ad16f7e8649e94fb4fc21fe77e8310c060f61caaff8a",
    },
    {
      rule: "Signing requests: SHA-256 (FIPS 180-2 'abc')",
      body: "abc",
      expected: "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
    },
    {
      rule: "Signing requests: a string is hashed as UTF-8",
      body: '{"displayName":"张三"}',
      expected: "ec4e71a2e42029df8087347e353ec456afc4b199a169de034a037a1aefdb0411",
    },
  ])("$rule", async ({ body, expected }) => {
    expect(await bodyHash(body)).toBe(expected);
  });

  it("Signing requests: a string, its UTF-8 bytes and their ArrayBuffer hash alike", async () => {
    const body = '{"displayName":"张三"}';
    const hash = await bodyHash(body);
    expect(await bodyHash(utf8(body))).toBe(hash);
    expect(await bodyHash(utf8(body).buffer)).toBe(hash);
  });

  it.each([
    {
      rule: "Signing requests: a Uint8Array view is hashed over its window only, not its whole buffer",
      run: async () => {
        const buffer = utf8("xx{}yy");
        expect(await bodyHash(buffer.subarray(2, 4))).toBe(await bodyHash("{}"));
      },
    },
    {
      rule: "Signing requests: bytes, not values: \\u escapes hash differently from raw UTF-8",
      run: async () => {
        expect(await bodyHash('{"n":"\\u5f20"}')).not.toBe(await bodyHash('{"n":"张"}'));
      },
    },
    {
      rule: "Signing requests: bytes, not values: a trailing line feed changes the hash",
      run: async () => {
        expect(await bodyHash("{}\n")).not.toBe(await bodyHash("{}"));
      },
    },
    {
      rule: "Signing requests: lowercase hex, 64 characters",
      run: async () => {
        expect(await bodyHash('{"a":"🎉"}')).toMatch(/^[0-9a-f]{64}$/);
      },
    },
    {
      rule: "a view on a SharedArrayBuffer is accepted (copied for Web Crypto)",
      run: async () => {
        const shared = new Uint8Array(new SharedArrayBuffer(2));
        shared.set(utf8("{}"));
        expect(await bodyHash(shared)).toBe(await bodyHash("{}"));
      },
    },
  ])("$rule", async ({ run }) => run());
});
