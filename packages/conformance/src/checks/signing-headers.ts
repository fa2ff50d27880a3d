/**
 * Signing requests: the headers. Each signature header exactly once (missing or repeated: 400 `REQUEST_INVALID`),
 * a nonce of 16-128 characters of `A-Z a-z 0-9 _ -`, a timestamp in Unix seconds, a signature of 64 lowercase hex
 * characters, `Content-Type: application/json`, no `Content-Encoding` but `identity`, no browser origin that the
 * cross-origin configuration does not allow.
 */
import { randomBytes } from "node:crypto";
import { gzipSync } from "node:zlib";
import { limits } from "@org/webinar-types";
import { expectError, expectOneOf, expectSuccess, type Check } from "../check";
import { acceptedAnswer, probe, probeCheck, refusedWith, type ProbeChanges } from "./probe";

const SIGNATURE_HEADERS = ["X-API-Key", "X-Timestamp", "X-Nonce", "X-Signature"] as const;
const NONCE_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-";

/** A nonce of `length` characters of the allowed alphabet, starting with `_-` so both are exercised. */
function nonceOf(length: number): string {
  return Array.from(randomBytes(length), (byte, index) => (index < 2 ? "_-"[index]! : NONCE_ALPHABET[byte % 64]!)).join(
    "",
  );
}

const missingHeaders = SIGNATURE_HEADERS.map(
  (header): Check => ({
    id: `signing.missing-header.${header.toLowerCase()}`,
    title: `a request without ${header} -> 400 REQUEST_INVALID`,
    async run(context) {
      const answer = await probe(context, { headers: { [header]: null } });
      // A missing key is also the "key missing" of the 401 OPEN_API_UNAUTHORIZED row: the spec allows both.
      if (header === "X-API-Key")
        expectOneOf(answer, [
          [400, ["REQUEST_INVALID"]],
          [401, ["OPEN_API_UNAUTHORIZED"]],
        ]);
      else expectError(answer, 400, ["REQUEST_INVALID"]);
      return undefined;
    },
  }),
);

const repeatedHeaders = SIGNATURE_HEADERS.map(
  (header): Check => ({
    id: `signing.repeated-header.${header.toLowerCase()}`,
    title: `${header} sent twice, on two lines, both with the correct value -> 400 REQUEST_INVALID`,
    async run(context) {
      expectError(await probe(context, { repeatHeader: header }), 400, ["REQUEST_INVALID"]);
      return undefined;
    },
  }),
);

const refusedAsInvalid = (id: string, title: string, changes: ProbeChanges) =>
  probeCheck(id, title, changes, refusedWith(400, "REQUEST_INVALID"));
const refusedAsUnauthorized = (id: string, title: string, changes: ProbeChanges) =>
  probeCheck(id, title, changes, refusedWith(401, "OPEN_API_UNAUTHORIZED"));
const accepted = (id: string, title: string, changes: ProbeChanges) => probeCheck(id, title, changes, acceptedAnswer);

const nonceChecks: Check[] = [
  accepted("signing.nonce.shortest", `a nonce of ${limits.nonceMinLength} characters of A-Z a-z 0-9 _ - -> accepted`, {
    nonce: nonceOf(limits.nonceMinLength),
  }),
  accepted("signing.nonce.longest", `a nonce of ${limits.nonceMaxLength} characters -> accepted`, {
    nonce: nonceOf(limits.nonceMaxLength),
  }),
  refusedAsInvalid(
    "signing.nonce.too-short",
    `a nonce of ${limits.nonceMinLength - 1} characters -> 400 REQUEST_INVALID`,
    { nonce: nonceOf(limits.nonceMinLength - 1) },
  ),
  refusedAsInvalid(
    "signing.nonce.too-long",
    `a nonce of ${limits.nonceMaxLength + 1} characters -> 400 REQUEST_INVALID`,
    { nonce: nonceOf(limits.nonceMaxLength + 1) },
  ),
  refusedAsInvalid(
    "signing.nonce.character",
    "a nonce with a character outside A-Z a-z 0-9 _ - (+, /, =) -> 400 REQUEST_INVALID",
    {
      nonce: `${nonceOf(20)}+/=`,
    },
  ),
];

const formatChecks: Check[] = [
  {
    id: "signing.timestamp.milliseconds",
    title: "X-Timestamp in milliseconds -> 401 OPEN_API_UNAUTHORIZED",
    async run(context) {
      const answer = await probe(context, { timestamp: String(Math.floor(context.clock.now())) });
      expectError(answer, 401, ["OPEN_API_UNAUTHORIZED"]);
      return undefined;
    },
  },
  {
    id: "signing.timestamp.not-decimal",
    title:
      "X-Timestamp not a decimal integer (seconds with a fraction) -> 400 REQUEST_INVALID or 401 OPEN_API_UNAUTHORIZED",
    async run(context) {
      // The spec names no single code for a malformed timestamp: a malformed header (400) or a skew (401).
      const answer = await probe(context, { timestamp: `${context.serverSeconds()}.0` });
      expectOneOf(answer, [
        [400, ["REQUEST_INVALID"]],
        [401, ["OPEN_API_UNAUTHORIZED"]],
      ]);
      return undefined;
    },
  },
  refusedAsUnauthorized(
    "signing.signature.uppercase-hex",
    "X-Signature in uppercase hex -> 401 OPEN_API_UNAUTHORIZED",
    {
      signature: (signature) => signature.toUpperCase(),
    },
  ),
  refusedAsUnauthorized("signing.signature.base64", "X-Signature in Base64 -> 401 OPEN_API_UNAUTHORIZED", {
    signature: (signature) => Buffer.from(signature, "hex").toString("base64"),
  }),
  refusedAsUnauthorized(
    "signing.signature.truncated",
    "X-Signature of 63 hex characters -> 401 OPEN_API_UNAUTHORIZED",
    { signature: (signature) => signature.slice(0, 63) },
  ),
];

const contentChecks: Check[] = [
  refusedAsInvalid("signing.content-type.missing", "no Content-Type -> 400 REQUEST_INVALID", {
    headers: { "Content-Type": null },
  }),
  refusedAsInvalid("signing.content-type.text-plain", "Content-Type: text/plain -> 400 REQUEST_INVALID", {
    headers: { "Content-Type": "text/plain" },
  }),
  accepted("signing.content-encoding.identity", "Content-Encoding: identity -> accepted", {
    headers: { "Content-Encoding": "identity" },
  }),
  {
    id: "signing.content-encoding.gzip",
    title: "a gzip-compressed body (Content-Encoding: gzip), signed as sent -> 400 REQUEST_INVALID",
    async run(context) {
      const compressed = gzipSync(JSON.stringify({ externalUserId: context.externalUserId("signing") }));
      const answer = await probe(context, { rawBody: compressed, headers: { "Content-Encoding": "gzip" } });
      expectError(answer, 400, ["REQUEST_INVALID"]);
      return undefined;
    },
  },
  {
    id: "signing.origin.not-allowed",
    title: "a browser call from an origin the cross-origin configuration does not allow -> 403 ORIGIN_FORBIDDEN",
    async run(context) {
      const answer = await probe(context, { headers: { Origin: "https://conformance.invalid" } });
      expectError(answer, 403, ["ORIGIN_FORBIDDEN"]);
      return undefined;
    },
  },
];

export const signingHeaderChecks: Check[] = [
  {
    id: "signing.correct",
    title: "a correctly signed request -> accepted (200)",
    async run(context) {
      expectSuccess(await probe(context));
      return undefined;
    },
  },
  ...missingHeaders,
  ...repeatedHeaders,
  ...nonceChecks,
  ...formatChecks,
  ...contentChecks,
];
