/**
 * The test vectors the package ships (`@org/webinar-signing/test-vectors.json`, generated from
 * spec/test-vectors/signing.json) are the spec's vectors exactly, and both backends reproduce every one of them.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { signingVectors, signingVectorsUrl } from "../../../spec/test-vectors/signing-vectors";
import { createSigner } from "../src/sign";
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
    "$backend reproduces positive vector: $name",
    async ({ backend, vector }) => {
      const signer = createSigner(vector.secret, backend);
      expect(await signer.hashBody(vector.body)).toBe(vector.bodyHash);
      expect(await signer.sign(vector.canonical)).toBe(vector.signature);
    },
  );

  it.each(onEveryBackend(shipped.negative))(
    "$backend rejects negative vector and accepts its expectedSignature: $name",
    async ({ backend, vector }) => {
      const signer = createSigner(vector.secret, backend);
      expect(await signer.verify(vector.canonical, vector.signature)).toBe(false);
      expect(await signer.verify(vector.canonical, vector.expectedSignature)).toBe(true);
    },
  );
});
