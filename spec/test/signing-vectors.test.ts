/**
 * Guards spec/test-vectors/signing.json itself: it is what generate-signing.sh (openssl) writes, it covers the
 * cases the spec calls out, and a second implementation (node:crypto) reproduces every value in it.
 */
import { execFile } from "node:child_process";
import { createHash, createHmac } from "node:crypto";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { signingVectors, signingVectorsUrl as vectorsUrl, type PositiveVector } from "../test-vectors/signing-vectors";

const run = promisify(execFile);
const generator = fileURLToPath(new URL("../test-vectors/generate-signing.sh", import.meta.url));
const file = signingVectors;

const sha256Hex = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");
const hmac = (key: Buffer, text: string) => createHmac("sha256", key).update(text, "utf8").digest();
const canonicalOf = (vector: PositiveVector) =>
  [vector.apiKey, vector.method, vector.path, vector.timestamp, vector.nonce, sha256Hex(vector.body)].join("\n");
const OPERATION_PATHS = [
  "/api/v1/open/viewers/upsert",
  "/api/v1/open/viewers/login-tickets",
  "/api/v1/open/watch-data/overview",
  "/api/v1/open/watch-data/viewers/query",
];

describe("spec/test-vectors/signing.json", () => {
  it("is exactly what generate-signing.sh writes (openssl is the source of every expected value)", async () => {
    const directory = await mkdtemp(join(tmpdir(), "signing-vectors-"));
    try {
      await run("bash", [generator, join(directory, "signing.json")]);
      expect(await readFile(join(directory, "signing.json"), "utf8")).toBe(await readFile(vectorsUrl, "utf8"));
    } finally {
      await rm(directory, { recursive: true, force: true });
    }
    // The generator runs openssl once per vector: a few seconds on a busy machine.
  }, 60_000);

  it.each([
    {
      rule: "generatedBy records the openssl commands",
      check: () => expect(file.generatedBy).toMatch(/openssl dgst -sha256 -hmac/),
    },
    { rule: "at least 10 positive vectors", check: () => expect(file.positive.length).toBeGreaterThanOrEqual(10) },
    {
      rule: "the operations each of the four operation paths",
      check: () => expect(new Set(file.positive.map((v) => v.path))).toEqual(new Set(OPERATION_PATHS)),
    },
    {
      rule: "Signing requests a Chinese body",
      check: () => expect(file.positive.some((v) => /张三/.test(v.body))).toBe(true),
    },
    {
      rule: "Signing requests an emoji body",
      check: () => expect(file.positive.some((v) => /\p{Extended_Pictographic}/u.test(v.body))).toBe(true),
    },
    {
      rule: "Signing requests the body {}",
      check: () => expect(file.positive.some((v) => v.body === "{}")).toBe(true),
    },
    {
      rule: "Signing requests a secret that looks like hex",
      check: () => expect(file.positive.some((v) => /^[0-9a-f]{64}$/.test(v.secret))).toBe(true),
    },
    {
      rule: "Signing requests a secret that looks like Base64",
      check: () => expect(file.positive.some((v) => /^[A-Za-z0-9+/]+={1,2}$/.test(v.secret))).toBe(true),
    },
    {
      rule: "Signing requests every nonce is 16-128 characters of A-Z a-z 0-9 _ -",
      check: () => expect(file.positive.every((v) => /^[A-Za-z0-9_-]{16,128}$/.test(v.nonce))).toBe(true),
    },
    {
      rule: "Signing requests every timestamp is Unix seconds",
      check: () => expect(file.positive.every((v) => /^\d{10}$/.test(v.timestamp))).toBe(true),
    },
    {
      rule: "Signing requests every method is POST",
      check: () => expect([...file.positive, ...file.negative].every((v) => v.method === "POST")).toBe(true),
    },
    {
      rule: "names are unique",
      check: () =>
        expect(new Set([...file.positive, ...file.negative].map((v) => v.name)).size).toBe(
          file.positive.length + file.negative.length,
        ),
    },
  ])("covers: $rule", ({ check }) => check());

  it.each([
    /re-serialized body: whitespace/,
    /re-serialized body: key order/,
    /millisecond timestamp/,
    /full URL/,
    /trailing slash/,
    /uppercase hex signature/,
    /Base64 signature/,
    /trailing line feed/,
    /wrong secret/,
    /hex-decoded/,
  ])("Signing requests: has a negative vector for the mistake %s", (pattern) => {
    expect(file.negative.some((vector) => pattern.test(vector.name))).toBe(true);
  });

  it.each(file.positive)("node:crypto reproduces positive vector: $name", (vector) => {
    expect(sha256Hex(vector.body)).toBe(vector.bodyHash);
    expect(canonicalOf(vector)).toBe(vector.canonical);
    expect(vector.canonical.endsWith("\n")).toBe(false);
    expect(hmac(Buffer.from(vector.secret, "utf8"), vector.canonical).toString("hex")).toBe(vector.signature);
  });

  it.each(file.negative)("node:crypto reproduces negative vector, and the mistake differs: $name", (vector) => {
    expect(sha256Hex(vector.body)).toBe(vector.bodyHash);
    expect(canonicalOf(vector)).toBe(vector.canonical);
    expect(hmac(Buffer.from(vector.secret, "utf8"), vector.canonical).toString("hex")).toBe(vector.expectedSignature);
    const mac = hmac(Buffer.from(vector.signingKeyHex, "hex"), vector.signedCanonical);
    const encoded = {
      hex: mac.toString("hex"),
      HEX: mac.toString("hex").toUpperCase(),
      base64: mac.toString("base64"),
    }[vector.signatureEncoding];
    expect(encoded).toBe(vector.signature);
    expect(vector.signature).not.toBe(vector.expectedSignature);
    expect(Object.keys(vector.wrong).length).toBeGreaterThan(0);
  });
});
