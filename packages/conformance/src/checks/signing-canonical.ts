/**
 * Signing requests: what is signed. The signature covers the key, `POST`, the path as sent, the timestamp, the
 * nonce and the SHA-256 of the exact body bytes, keyed with the secret as raw text; each common mistake of the
 * guide gives 401 `OPEN_API_UNAUTHORIZED`. The timestamp is accepted within the skew window on both sides of the
 * server's clock and refused beyond it.
 */
import { randomBytes } from "node:crypto";
import { operations } from "@org/webinar-types";
import { expectError, expectSuccess, type Check } from "../check";
import type { RunContext } from "../run-context";
import { probe, probeBody, probeCheck, refusedWith, type ProbeChanges } from "./probe";

const unauthorized = (id: string, title: string, mistake: ProbeChanges) =>
  probeCheck(id, `${title} -> 401 OPEN_API_UNAUTHORIZED`, mistake, refusedWith(401, "OPEN_API_UNAUTHORIZED"));

const encoder = new TextEncoder();

/** The probe body with its last id character's case flipped: as long as the signed body, different bytes. */
function alteredBody(context: RunContext): Uint8Array {
  const text = JSON.stringify(probeBody(context));
  const at = text.lastIndexOf('"') - 1;
  const last = text[at]!;
  const flipped = last === last.toUpperCase() ? last.toLowerCase() : last.toUpperCase();
  return encoder.encode(`${text.slice(0, at)}${flipped === last ? "X" : flipped}${text.slice(at + 1)}`);
}

const mistakes: Check[] = [
  unauthorized("signing.secret.wrong", "signed with another secret", (context) => ({
    credentials: { apiKey: context.options.main.apiKey, secret: `${context.options.main.secret}x` },
  })),
  unauthorized("signing.key.unknown", "an API key the server never issued", () => ({
    credentials: {
      apiKey: `wk_conformance_${randomBytes(12).toString("hex")}`,
      secret: randomBytes(18).toString("hex"),
    },
  })),
  unauthorized("signing.body.altered", "a body altered after signing (same length, one byte changed)", (context) => ({
    sentBody: alteredBody(context),
  })),
  unauthorized(
    "signing.body.reserialized",
    "JSON serialized again after signing (signed compact, sent indented)",
    (context) => ({ sentBody: encoder.encode(JSON.stringify(probeBody(context), null, 2)) }),
  ),
  unauthorized("signing.canonical.trailing-line-feed", "a canonical string with a trailing line feed", () => ({
    canonical: (canonical) => `${canonical}\n`,
  })),
  unauthorized("signing.canonical.method-case", "the method signed as `post`, not `POST`", () => ({
    canonical: (canonical) => canonical.replace("\nPOST\n", "\npost\n"),
  })),
  unauthorized("signing.canonical.full-url", "the full URL signed instead of the path", (context) => ({
    signedPath: `${context.options.origin}${context.options.basePath}${operations.upsertViewer.path}`,
  })),
  unauthorized("signing.canonical.other-path", "another operation's path signed", (context) => ({
    signedPath: `${context.options.basePath}${operations.getWatchOverview.path}`,
  })),
];

/** How far inside and outside the window the edge checks aim: the clock estimate is good to about a second. */
function edgeMargins(skewSeconds: number): { inside: number; outside: number } {
  const margin = Math.min(10, Math.floor(skewSeconds / 2));
  return { inside: skewSeconds - margin, outside: skewSeconds + 10 };
}

function clockNote(context: RunContext): string {
  const offset = context.clock.offsetMs();
  return offset === undefined
    ? "no Date header seen: the local clock stood for the server's"
    : `server clock from its Date header, ${offset >= 0 ? "+" : ""}${(offset / 1000).toFixed(1)} s from the local one`;
}

const windowEdge = (side: "past" | "future", inside: boolean): Check => {
  const sign = side === "past" ? -1 : 1;
  const word = side === "past" ? "behind" : "ahead of";
  return {
    id: `signing.timestamp.${side}-${inside ? "inside" : "outside"}`,
    title: inside
      ? `X-Timestamp just inside the skew window, ${word} the server's clock -> accepted`
      : `X-Timestamp just outside the skew window, ${word} the server's clock -> 401 OPEN_API_UNAUTHORIZED`,
    async run(context) {
      await probe(context); // an answer first, so the server's clock is known from its Date header
      const { inside: near, outside: far } = edgeMargins(context.options.clockSkewSeconds);
      const seconds = inside ? near : far;
      const answer = await probe(context, { timestamp: context.serverSeconds(sign * seconds) });
      if (inside)
        expectSuccess(
          answer,
          `acceptance ${seconds} s ${word} the server's clock (skew window ±${context.options.clockSkewSeconds} s; pass --clock-skew-seconds if the server's differs)`,
        );
      else expectError(answer, 401, ["OPEN_API_UNAUTHORIZED"]);
      return `${seconds} s ${word} the server's clock; ${clockNote(context)}`;
    },
  };
};

export const signingCanonicalChecks: Check[] = [
  ...mistakes,
  windowEdge("past", true),
  windowEdge("future", true),
  windowEdge("past", false),
  windowEdge("future", false),
];
