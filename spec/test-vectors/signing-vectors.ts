/**
 * spec/test-vectors/signing.json, typed: the one loader every test of the vectors uses (spec, signing, validator).
 * Its expected values come from openssl (generate-signing.sh), never from the code under test.
 */
import { readFileSync } from "node:fs";

export interface PositiveVector {
  name: string;
  apiKey: string;
  secret: string;
  method: string;
  path: string;
  timestamp: string;
  nonce: string;
  body: string;
  bodyHash: string;
  canonical: string;
  signature: string;
}

export interface NegativeVector extends Omit<PositiveVector, "signature"> {
  mistake: string;
  rule: string;
  expectedSignature: string;
  wrong: Record<string, string>;
  signedCanonical: string;
  signingKeyHex: string;
  signatureEncoding: "hex" | "HEX" | "base64";
  signature: string;
}

export interface SigningVectors {
  description: string;
  generatedBy: string;
  positive: PositiveVector[];
  negative: NegativeVector[];
}

/** Where the file is, for tests that read or regenerate it as text. */
export const signingVectorsUrl = new URL("./signing.json", import.meta.url);
export const signingVectors = JSON.parse(readFileSync(signingVectorsUrl, "utf8")) as SigningVectors;
if (signingVectors.positive.length === 0 || signingVectors.negative.length === 0)
  throw new Error(`${signingVectorsUrl.pathname} has no vectors`);

export const positiveVectors: readonly PositiveVector[] = signingVectors.positive;
export const negativeVectors: readonly NegativeVector[] = signingVectors.negative;
