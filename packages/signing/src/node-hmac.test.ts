import * as nodeCrypto from "node:crypto";
import { describe, expect, it } from "vitest";
import { positiveVectors } from "../../../spec/test-vectors/signing-vectors";
import type { NodeCrypto } from "./crypto-backend";
import { createNodeHmac, preparedNodeHmac } from "./node-hmac";

const builtin: NodeCrypto = nodeCrypto;
const utf8 = (text: string) => new TextEncoder().encode(text);
const reference = (key: Uint8Array, message: string) => nodeCrypto.createHmac("sha256", key).update(message, "utf8").digest("hex");

/** node:crypto whose createHmac must not be reached: proves the two-hash path computed the answer. */
const withoutCreateHmac: NodeCrypto = {
  ...builtin,
  createHmac: () => {
    throw new Error("createHmac must not be used for this key");
  },
};
/** node:crypto of a runtime without the one-shot hash (before Node 20.12): the key-object path. */
const withoutHash: NodeCrypto = { createHash: builtin.createHash, createHmac: builtin.createHmac, createSecretKey: builtin.createSecretKey };

describe("createNodeHmac: HMAC-SHA256 from two one-shot hashes (RFC 2104)", () => {
  // RFC 4231 test cases whose data is text; 6 and 7 have a key longer than a block.
  it.each([
    { name: "RFC 4231 case 1", key: new Uint8Array(20).fill(0x0b), data: "Hi There", mac: "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7" },
    { name: "RFC 4231 case 2", key: utf8("Jefe"), data: "what do ya want for nothing?", mac: "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843" },
    {
      name: "RFC 4231 case 6",
      key: new Uint8Array(131).fill(0xaa),
      data: "Test Using Larger Than Block-Size Key - Hash Key First",
      mac: "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54",
    },
    {
      name: "RFC 4231 case 7",
      key: new Uint8Array(131).fill(0xaa),
      data: "This is a test using a larger than block-size key and a larger than block-size data. The key needs to be hashed before being used by the HMAC algorithm.",
      mac: "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2",
    },
  ])("$name", ({ key, data, mac }) => {
    expect(createNodeHmac(builtin, key)(data)).toBe(mac);
    expect(createNodeHmac(withoutHash, key)(data)).toBe(mac);
  });

  it.each(positiveVectors)("§5.2 signs vector $name without createHmac when the secret is ASCII", (vector) => {
    const key = utf8(vector.secret);
    const ascii = key.every((byte) => byte < 0x80);
    expect(createNodeHmac(ascii ? withoutCreateHmac : builtin, key)(vector.canonical)).toBe(vector.signature);
    expect(createNodeHmac(withoutHash, key)(vector.canonical)).toBe(vector.signature);
  });

  // Key lengths around the block size, and messages with every kind of UTF-8, including a lone surrogate (which
  // both paths encode as U+FFFD) and messages longer than a block.
  const messages = ["", "a", "wk_live_x\nPOST\n/api/v1/open/viewers/upsert", "张三🎉\u0000\u{10FFFF}", "\ud800 lone", "é".repeat(300)];
  const asciiKeys = [1, 2, 31, 32, 63, 64].map((length) => Array.from({ length }, (_, index) => String.fromCharCode(33 + ((index * 7) % 94))).join(""));
  it.each(asciiKeys.map((key) => ({ key, length: key.length })))("an ASCII key of $length bytes agrees with createHmac", ({ key }) => {
    const hmac = createNodeHmac(withoutCreateHmac, utf8(key));
    for (const message of messages) expect(hmac(message)).toBe(reference(utf8(key), message));
  });

  it.each([
    { rule: "a key longer than a block", key: "k".repeat(65) },
    { rule: "a non-ASCII key", key: "密钥-secret" },
    { rule: "a key of exactly a block with one non-ASCII character", key: `é${"k".repeat(62)}` },
  ])("$rule takes the key-object path and agrees with createHmac", ({ key }) => {
    const hmac = createNodeHmac(builtin, utf8(key));
    for (const message of messages) expect(hmac(message)).toBe(reference(utf8(key), message));
    expect(() => createNodeHmac(withoutCreateHmac, utf8(key))("x")).toThrow("createHmac must not be used");
  });

  it("gives the same answer on every call (the reused outer buffer holds no state between calls)", () => {
    const hmac = createNodeHmac(builtin, utf8("Vq7#tR2m!Lp9@xZ4&nB6^wK1"));
    const first = hmac("one");
    expect(hmac("two")).toBe(reference(utf8("Vq7#tR2m!Lp9@xZ4&nB6^wK1"), "two"));
    expect(hmac("one")).toBe(first);
  });

  it("preparedNodeHmac prepares a secret once and uses its UTF-8 bytes as the key", () => {
    const hmac = preparedNodeHmac(builtin, "秘密-secret");
    expect(preparedNodeHmac(builtin, "another")).not.toBe(hmac);
    expect(preparedNodeHmac(builtin, "秘密-secret")).toBe(hmac);
    expect(hmac("m")).toBe(reference(utf8("秘密-secret"), "m"));
  });
});
