/**
 * Every `pattern` of spec/openapi.yaml reads alike in ECMAScript (with and without the `u` flag), Python `re`, Go
 * RE2, Java and .NET: it keeps to the syntax all five share (literal characters, `\xHH` escapes, escaped
 * punctuation, classes, groups, alternation, quantifiers, `^` and `$`). The escapes that differ are refused:
 * `\p{...}` (ECMAScript needs the `u` flag, Python has none), `\uXXXX` (Go RE2 has none), `\s`, `\d`, `\w` and
 * `\b` (ASCII in Go and Java, Unicode in Python and .NET), and `.` (which stops at other line breaks in each
 * engine). Lookarounds and backreferences are refused too (Go RE2 has neither). Python compiles every pattern in
 * python-consumer.test.ts.
 */
import { describe, expect, it } from "vitest";
import { spec } from "./load-spec.ts";

/** Every `pattern` of the spec with where it occurs. */
function collectPatterns(): Array<{ where: string; source: string }> {
  const found: Array<{ where: string; source: string }> = [];
  const walk = (node: unknown, where: string): void => {
    if (node === null || typeof node !== "object") return;
    for (const [key, value] of Object.entries(node)) {
      if (key === "pattern" && typeof value === "string") found.push({ where, source: value });
      else walk(value, `${where}/${key}`);
    }
  };
  walk(spec, "#");
  return found;
}

const patterns = collectPatterns();
/** The source with escapes and classes taken out, to find what stands outside them. */
const outsideClasses = (source: string) => source.replace(/\\./g, "").replace(/\[[^\]]*\]/g, "");
/** Every single code point of the Basic Multilingual Plane, lone surrogates included, and an astral one. */
const PROBES = [...Array.from({ length: 0x10000 }, (_, index) => String.fromCharCode(index)), "🐼"];

describe("every pattern of the spec is portable", () => {
  it("the walk finds the spec's patterns", () => {
    expect(patterns.length).toBeGreaterThanOrEqual(6);
  });

  it.each(patterns)("$where: $source uses only the syntax every engine shares", ({ source }) => {
    expect(source).not.toMatch(/\\[pPuUsSdDwWbBkc1-9]/);
    expect(source).not.toMatch(/\(\?[=!<]/);
    for (const byteEscape of source.match(/\\x.{0,2}/g) ?? []) expect(byteEscape).toMatch(/^\\x[0-9A-Fa-f]{2}$/);
    expect(outsideClasses(source)).not.toContain(".");
  });

  it.each(patterns)("$where: $source means the same with and without the u flag", ({ source }) => {
    const plain = new RegExp(source);
    const unicode = new RegExp(source, "u");
    const differing = PROBES.flatMap((probe) => [probe, `1380013800${probe}`, `a${probe}b`]).filter(
      (text) => plain.test(text) !== unicode.test(text),
    );
    expect(differing).toEqual([]);
  });
});
