/**
 * The test vectors the package ships (`@org/webinar-signing/test-vectors.json`, generated from
 * spec/test-vectors/signing.json) are the spec's vectors exactly, and both backends reproduce every one of them:
 * the request signer gives each positive vector's headers, canonical string and body hash, and verification
 * rejects each negative vector's mistake and accepts its correct signature. This is the one place the package
 * runs the vectors; the unit tests beside each module check their own rules.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { signingVectors, signingVectorsUrl } from "@org/webinar-spec/test-vectors/signing-vectors";
import { createRequestSigner } from "../src/request-signer";
import { createSigner } from "../src/sign";
import { signRequest } from "../src/sign-request";
import { verify } from "../src/verify";
import shipped from "../src/test-vectors.gen.json" with { type: "json" };
import { onEveryBackend } from "./backends";

describe("shipped test vectors", () => {
  it("are the spec's vectors, unchanged, under a $comment naming their source", () => {
    const { $comment, ...vectors } = shipped;
    expect(vectors).toEqual(signingVectors);
    expect($comment).toContain("spec/test-vectors/signing.json");
  });

  it("name the SHA-256 of the spec file they were generated from (regenerate with `pnpm generate`)", () => {
    const sourceHash = createHash("sha256").update(readFileSync(signingVectorsUrl)).digest("hex");
    expect(shipped.$comment).toContain(`sha256 ${sourceHash}`);
  });

  it.each(onEveryBackend(shipped.positive))(
    "Signing requests: $backend signs positive vector exactly (body as text and as bytes): $name",
    async ({ backend, vector }) => {
      const signer = createRequestSigner({ apiKey: vector.apiKey, secret: vector.secret, crypto: backend });
      const { path, timestamp, nonce } = vector;
      const expected = {
        headers: {
          "Content-Type": "application/json",
          "X-API-Key": vector.apiKey,
          "X-Timestamp": timestamp,
          "X-Nonce": nonce,
          "X-Signature": vector.signature,
        },
        canonical: vector.canonical,
        bodyHash: vector.bodyHash,
      };
      expect(await signer.sign({ path, timestamp, nonce, body: vector.body })).toEqual(expected);
      const bytes = new TextEncoder().encode(vector.body);
      expect(await signer.sign({ path, timestamp, nonce, body: bytes })).toEqual(expected);
      expect(await createSigner(vector.secret, backend).verify(vector.canonical, vector.signature)).toBe(true);
    },
  );

  it.each(onEveryBackend(shipped.negative))(
    "Signing requests: $backend rejects negative vector and accepts its expectedSignature: $name",
    async ({ backend, vector }) => {
      const signer = createSigner(vector.secret, backend);
      expect(await signer.hashBody(vector.body)).toBe(vector.bodyHash);
      expect(await signer.sign(vector.canonical)).toBe(vector.expectedSignature);
      expect(await signer.verify(vector.canonical, vector.signature)).toBe(false);
      expect(await signer.verify(vector.canonical, vector.expectedSignature)).toBe(true);
    },
  );

  it.each(shipped.positive)("the one-call functions agree: signRequest and verify of vector: $name", async (vector) => {
    const signed = await signRequest(vector);
    expect(signed.headers["X-Signature"]).toBe(vector.signature);
    expect(await verify(vector.secret, vector.canonical, vector.signature)).toBe(true);
  });
});
