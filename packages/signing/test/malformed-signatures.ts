import { positiveVectors } from "../../../spec/test-vectors/signing-vectors";

const { signature } = positiveVectors[0]!;

/** Received X-Signature values that must be rejected whatever the secret (spec §5.1: 64 lowercase hex characters). */
export const malformedSignatures: readonly { rule: string; signature: string }[] = [
  { rule: "§5.1 uppercase hex", signature: signature.toUpperCase() },
  { rule: "§5.1 one uppercase hex letter", signature: signature.replace(/[a-f]/, (letter) => letter.toUpperCase()) },
  { rule: "§5.1 Base64", signature: Buffer.from(signature, "hex").toString("base64") },
  { rule: "§5.1 63 characters", signature: signature.slice(0, 63) },
  { rule: "§5.1 65 characters", signature: `${signature}0` },
  { rule: "§5.1 trailing line feed", signature: `${signature}\n` },
  { rule: "§5.1 surrounding spaces", signature: ` ${signature} ` },
  { rule: "§5.1 non-hex letter", signature: `g${signature.slice(1)}` },
  { rule: "§5.1 empty (missing header)", signature: "" },
  { rule: "§5.1 sha256= prefix", signature: `sha256=${signature}` },
  { rule: "§5.1 two values joined by a proxy", signature: `${signature}, ${signature}` },
];
