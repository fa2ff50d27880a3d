/**
 * Every `pattern` of spec/openapi.yaml and packages/admin-contract/admin-openapi.yaml runs in linear time. ajv tests a
 * pattern even when the string is far over its `maxLength`, on the event loop every request shares, so one
 * pattern that backtracks lets a single body stall the server: the former displayName pattern took 8 s on
 * 80 000 letters and a control character.
 *
 * The patterns are collected by walking both documents whole, each also as the validators compile it (beside
 * `x-no-lone-surrogates`, with `\p{Cs}` added: packages/validator/scripts/spec-schemas.ts), compiled as the
 * generated validators compile them (`new RegExp(source, "u")`: both generators set ajv's `unicodeRegExp`, checked
 * below against the generated code), and run against adversarial strings: a long run of one character, followed by a character that breaks
 * the match. The runs use each character the pattern mentions and common classes (letters, digits, spaces, CJK,
 * an emoji, every forbidden character), and grow to the body-size limit of `x-limits`: no string of a body can
 * be longer than the body. The one timed assertion: no match may take more than 50 ms of CPU time (the process's
 * CPU time, not the wall clock, so a test machine busy with other work cannot fail a linear pattern).
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { compiledPattern } from "../../packages/validator/scripts/spec-schemas.ts";
import { spec } from "./load-spec.ts";

const BUDGET_MS = 50;
const FLAGS = "u";

const adminDocument: unknown = parse(
  readFileSync(new URL("../../packages/admin-contract/admin-openapi.yaml", import.meta.url), "utf8"),
);
const documents = { "spec/openapi.yaml": spec as unknown, "packages/admin-contract/admin-openapi.yaml": adminDocument };

/** Pattern source -> where it occurs (document and JSON pointer), from `pattern` keywords and `patternProperties` keys. */
function collectPatterns(): Map<string, string[]> {
  const found = new Map<string, string[]>();
  const add = (source: string, where: string) => found.set(source, [...(found.get(source) ?? []), where]);
  const walk = (node: unknown, where: string): void => {
    if (Array.isArray(node)) {
      for (const [index, item] of node.entries()) walk(item, `${where}/${index}`);
      return;
    }
    if (node === null || typeof node !== "object") return;
    for (const [key, value] of Object.entries(node)) {
      const at = `${where}/${key.replaceAll("~", "~0").replaceAll("/", "~1")}`;
      if (key === "pattern" && typeof value === "string") {
        add(value, at);
        const compiled = compiledPattern(node as Parameters<typeof compiledPattern>[0]);
        if (typeof compiled === "string" && compiled !== value) add(compiled, `${at} (compiled)`);
      }
      if (key === "patternProperties" && value !== null && typeof value === "object")
        for (const source of Object.keys(value)) add(source, at);
      walk(value, at);
    }
  };
  for (const [name, document] of Object.entries(documents)) walk(document, `${name}#`);
  return found;
}

const patterns = collectPatterns();

/** The characters no request string may hold, and the white space and controls trimming treats differently. */
const FORBIDDEN = [
  "\u0000",
  "\t",
  "\n",
  "\u001f",
  "\u007f",
  "\u0085",
  "\u009f",
  "\u2028",
  "\u2029",
  "\ud800",
  "\udc00",
];
/** Common classes: letters, digits, spaces (ASCII, ideographic), CJK, an emoji (a surrogate pair), the forbidden characters. */
const COMMON = ["a", "Z", "0", " ", "\u3000", "张", "🐼", ...FORBIDDEN];
/** Characters that end a run and break the match of most patterns: punctuation, a space, a letter, a digit, forbidden ones. */
const BREAKERS = ["!", " ", "a", "0", "\u0000", "\u2028", "\ud800", "\udc00"];

/**
 * One character of each class the pattern's source mentions: its literal characters (class members, range ends),
 * `\uXXXX` and `\xHH` escapes decoded, and a member of each class escape. `\p{...}` classes are covered by COMMON.
 */
function mentionedCharacters(source: string): string[] {
  const escapes: Record<string, string> = { s: " ", S: "a", d: "0", D: "a", w: "a", W: "!" };
  const characters = new Set<string>();
  for (const [, hex, byte, escaped, literal] of source.matchAll(
    /\\u([0-9a-fA-F]{4})|\\x([0-9a-fA-F]{2})|\\p\{[^}]*\}|\\(.)|([^\\^$*+?()[\]{}|])/gu,
  )) {
    if (hex !== undefined) characters.add(String.fromCharCode(Number.parseInt(hex, 16)));
    else if (byte !== undefined) characters.add(String.fromCharCode(Number.parseInt(byte, 16)));
    else if (escaped !== undefined) characters.add(escapes[escaped] ?? escaped);
    else if (literal !== undefined) characters.add(literal);
  }
  return [...characters];
}

const maxBodyBytes: number = spec["x-limits"].maxBodyBytes;
/** Run lengths in UTF-16 units: from 1024, sixteen times longer each step, ending at the body-size limit. */
const LENGTHS: number[] = [];
for (let length = 1024; length < maxBodyBytes; length *= 16) LENGTHS.push(length);
LENGTHS.push(maxBodyBytes);

interface Measurement {
  milliseconds: number;
  string: string;
}

/** `U+0041`, `U+1F43C` for an emoji, `U+D800` for a lone surrogate: readable for controls and separators too. */
const codePoints = (text: string) =>
  [...text].map((character) => `U+${character.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`).join(" ");

/** CPU milliseconds `regExp.test(subject)` takes. */
function cpuMillisecondsOnce(regExp: RegExp, subject: string): number {
  const before = process.cpuUsage();
  regExp.test(subject);
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000;
}

/**
 * The process's CPU time counts its garbage collector's threads too, so a busy machine adds noise to a run but
 * never takes time away: over the budget, the string is measured twice more and the least is kept. A pattern
 * that backtracks is over it every time, by far.
 */
function cpuMilliseconds(regExp: RegExp, subject: string): number {
  let least = cpuMillisecondsOnce(regExp, subject);
  for (let again = 0; again < 2 && least > BUDGET_MS; again++)
    least = Math.min(least, cpuMillisecondsOnce(regExp, subject));
  return least;
}

/**
 * Times `regExp` on every adversarial string; stops at the first one over the budget, since a pattern that
 * backtracks would take minutes on the longer ones. Each string is measured once, after a warm-up run on the
 * same string (V8 compiles the expression to machine code and flattens the string in that run).
 */
function slowestMatch(regExp: RegExp, source: string): Measurement {
  let slowest: Measurement = { milliseconds: 0, string: "" };
  for (const run of new Set([...mentionedCharacters(source), ...COMMON])) {
    for (const breaker of BREAKERS) {
      for (const length of LENGTHS) {
        const subject = run.repeat(Math.floor(length / run.length)) + breaker;
        regExp.test(subject);
        const milliseconds = cpuMilliseconds(regExp, subject);
        const description = `${Math.floor(length / run.length)} x ${codePoints(run)} then ${codePoints(breaker)}`;
        if (milliseconds > slowest.milliseconds) slowest = { milliseconds, string: description };
        if (milliseconds > BUDGET_MS) return slowest;
      }
    }
  }
  return slowest;
}

describe("every pattern of the spec and the admin document runs in linear time", () => {
  it("the walk finds the patterns of both documents, the text rule among them", () => {
    const documentsWithPatterns = new Set([...patterns.values()].flat().map((where) => where.split("#")[0]));
    expect([...documentsWithPatterns].sort()).toEqual(Object.keys(documents).sort());
    expect(patterns.get("^[^\\x00-\\x1F\\x7F-\\x9F\u2028\u2029]*$")).toEqual(
      expect.arrayContaining([
        "spec/openapi.yaml#/components/schemas/ExternalUserId/pattern",
        "spec/openapi.yaml#/components/schemas/QueryViewerWatchRequest/properties/cursor/pattern",
      ]),
    );
  });

  it("the generated validators compile exactly these patterns, each with the u flag", () => {
    const generated = [
      "packages/validator/src/request-validators.gen.js",
      "packages/validator/src/response-validators.gen.js",
      "packages/admin-contract/src/admin-validators.gen.js",
    ];
    const compiled = generated.flatMap((file) =>
      [
        ...readFileSync(new URL(`../../${file}`, import.meta.url), "utf8").matchAll(
          /new RegExp\(("(?:[^"\\]|\\.)*"), "(\w*)"\)/g,
        ),
      ].map(([, quoted, flags]) => ({
        source: JSON.parse(quoted!) as string,
        flags,
      })),
    );
    expect(compiled.length).toBeGreaterThan(0);
    for (const { source, flags } of compiled) {
      expect(flags, source).toBe(FLAGS);
      expect(patterns.has(source), `${source} is not in the documents`).toBe(true);
    }
  });

  it.each([...patterns].map(([source, where]) => [source, where] as const))(
    `%s: no adversarial string up to the body-size limit takes over ${BUDGET_MS} ms`,
    (source, where) => {
      const slowest = slowestMatch(new RegExp(source, FLAGS), source);
      console.log(
        `pattern ${source} (${where.length} uses): slowest ${slowest.milliseconds.toFixed(2)} ms on ${slowest.string}`,
      );
      expect(
        slowest.milliseconds,
        `${source} at ${where.join(", ")} took ${slowest.milliseconds.toFixed(0)} ms on ${slowest.string}`,
      ).toBeLessThanOrEqual(BUDGET_MS);
    },
    // Each case times hundreds of matches on strings up to a mebibyte: seconds in all on a busy machine, though
    // every single match stays within the budget.
    60_000,
  );
});
