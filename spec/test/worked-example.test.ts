import { describe, expect, it } from "vitest";
import { signingVectors as vectors } from "../test-vectors/signing-vectors";
import { spec } from "./load-spec.ts";

const guide: string = spec.tags.find((tag: { name: string }) => tag.name === "Signing requests").description;

describe("the Signing requests guide", () => {
  const named = /test vector "([^"]+)"/.exec(guide)?.[1];
  const vector = vectors.positive.find((candidate) => candidate.name === named);

  it("names a positive signing vector as its worked example", () => {
    expect(named).toBeDefined();
    expect(vector).toBeDefined();
  });

  it.each(["apiKey", "secret", "path", "timestamp", "nonce", "body", "bodyHash", "signature"] as const)(
    "Signing requests: shows the vector's %s exactly",
    (field) => expect(guide).toContain(vector![field]),
  );

  it("Signing requests: shows the canonical string line by line", () => {
    for (const line of vector!.canonical.split("\n")) expect(guide).toContain(`\n${line}\n`);
  });
});
