/**
 * Loads spec/test-vectors/signing.json, whose expected values come from openssl (spec/test-vectors/generate-signing.sh),
 * not from this package.
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

interface SigningVectors {
  positive: PositiveVector[];
  negative: NegativeVector[];
}

const file = new URL("../../../spec/test-vectors/signing.json", import.meta.url);
const vectors = JSON.parse(readFileSync(file, "utf8")) as SigningVectors;
if (vectors.positive.length === 0 || vectors.negative.length === 0) throw new Error(`${file.pathname} has no vectors`);

export const positiveVectors: readonly PositiveVector[] = vectors.positive;
export const negativeVectors: readonly NegativeVector[] = vectors.negative;
