import { positiveVectors } from "@org/webinar-spec/test-vectors/signing-vectors";

const { signature } = positiveVectors[0]!;

/** Received X-Signature values that must be rejected whatever the secret (the `Signature` header: 64 lowercase hex characters). */
export const malformedSignatures: readonly { rule: string; signature: string }[] = [
  { rule: "Signing requests: uppercase hex", signature: signature.toUpperCase() },
  {
    rule: "Signing requests: one uppercase hex letter",
    signature: signature.replace(/[a-f]/, (letter) => letter.toUpperCase()),
  },
  { rule: "Signing requests: Base64", signature: Buffer.from(signature, "hex").toString("base64") },
  { rule: "Signing requests: 63 characters", signature: signature.slice(0, 63) },
  { rule: "Signing requests: 65 characters", signature: `${signature}0` },
  { rule: "Signing requests: trailing line feed", signature: `${signature}\n` },
  { rule: "Signing requests: surrounding spaces", signature: ` ${signature} ` },
  { rule: "Signing requests: non-hex letter", signature: `g${signature.slice(1)}` },
  { rule: "Signing requests: empty (missing header)", signature: "" },
  { rule: "Signing requests: sha256= prefix", signature: `sha256=${signature}` },
  { rule: "Signing requests: two values joined by a proxy", signature: `${signature}, ${signature}` },
];
