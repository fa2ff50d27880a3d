import { describe, expect, it } from "vitest";
import { parseYamlSubset } from "../scripts/yaml-subset";

describe("parseYamlSubset", () => {
  it.each([
    ["scalars", "a: 1\nb: true\nc: null\nd: text with: colon\ne: '2026'\nf: \"x\\ny\"\n", { a: 1, b: true, c: null, d: "text with: colon", e: "2026", f: "x\ny" }],
    ["nesting and sequences", "a:\n  b:\n    - 1\n    - x: 2\n      y: 3\n  c: [A, 'B c', 4]\n", { a: { b: [1, { x: 2, y: 3 }], c: ["A", "B c", 4] } }],
    ["block scalars", "a: |\n  one\n\n  two\nb: >-\n  folded\n  line\n", { a: "one\n\ntwo\n", b: "folded line" }],
    ["comments and empty flow mapping", "# top\na: {} # trailing\nb: 'not # a comment'\n", { a: {}, b: "not # a comment" }],
    ["sequence at the key's indentation", "a:\n- 1\n- 2\n", { a: [1, 2] }],
  ])("%s", (_label, source, expected) => {
    expect(parseYamlSubset(source)).toEqual(expected);
  });

  it.each([
    ["an anchor", "a: &x 1\n"],
    ["a duplicate key", "a: 1\na: 2\n"],
    ["a tab indentation", "a:\n\tb: 1\n"],
    ["bad indentation", "a: 1\n   b: 2\n"],
  ])("refuses %s", (_label, source) => {
    expect(() => parseYamlSubset(source)).toThrow(/line \d+/);
  });
});
