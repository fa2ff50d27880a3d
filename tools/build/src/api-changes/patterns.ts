/**
 * Compares the text rules of two string schemas (`pattern`, and `x-no-lone-surrogates`) by the strings they
 * accept, so a rewrite that accepts exactly the same strings (a portable spelling of the same character class) is
 * not reported as a new rule, and a class that lost or gained characters is reported as narrowed or widened.
 *
 * A pattern is split into atoms, each matching exactly one code point (a literal, `.`, an escape such as `\d` or
 * `\x7F`, a class `[...]`), and structure (groups, alternation, quantifiers, anchors). The language of such a
 * regular expression only grows when an atom's set grows, so two patterns of the same structure compare atom by
 * atom, each atom's set taken over every code point with the `u` flag, as the validators compile patterns.
 * Patterns of different structure, or with lookarounds or backreferences (whose languages do not grow with their
 * atoms), compare as "changed": the checker cannot tell, so it assumes the worst.
 *
 * `x-no-lone-surrogates: true` takes the strings holding a lone surrogate out of what a schema accepts. Each atom
 * matches one code point, so that is the same as taking U+D800-U+DFFF out of every atom's set.
 */
import { combine, type Relation } from "./model.ts";

/** The rules of a string schema that say which characters it accepts. */
export interface TextRule {
  pattern?: string | undefined;
  noLoneSurrogates: boolean;
}

interface Token {
  atom: boolean;
  source: string;
}

/** A token and how many characters of the pattern it took. */
interface Read {
  token: Token;
  length: number;
}

const CODE_POINTS = 0x110000;
const isSurrogate = (codePoint: number) => codePoint >= 0xd800 && codePoint <= 0xdfff;

const read = (chars: string[], index: number, length: number, atom = true): Read => ({
  token: { atom, source: chars.slice(index, index + length).join("") },
  length,
});

/** An escape at `chars[index]` (a backslash); undefined for a backreference. */
function readEscape(chars: string[], index: number): Read | undefined {
  const next = chars[index + 1] ?? "";
  if (next === "b" || next === "B") return read(chars, index, 2, false);
  if (/[1-9k]/.test(next)) return undefined;
  if (next === "p" || next === "P" || (next === "u" && chars[index + 2] === "{")) {
    const close = chars.indexOf("}", index);
    return close === -1 ? undefined : read(chars, index, close - index + 1);
  }
  if (next === "x") return read(chars, index, 4);
  if (next === "u") return read(chars, index, 6);
  if (next === "c") return read(chars, index, 3);
  return read(chars, index, 2);
}

/** A character class at `chars[index]` (a `[`). */
function readClass(chars: string[], index: number): Read | undefined {
  let end = index + 1;
  while (end < chars.length && chars[end] !== "]") end += chars[end] === "\\" ? 2 : 1;
  return end >= chars.length ? undefined : read(chars, index, end - index + 1);
}

/** A group opening at `chars[index]`, its name dropped; undefined for a lookaround. */
function readGroup(chars: string[], index: number): Read | undefined {
  if (chars[index + 1] !== "?") return read(chars, index, 1, false);
  if (chars[index + 2] === ":") return read(chars, index, 3, false);
  const named = chars[index + 2] === "<" && chars[index + 3] !== "=" && chars[index + 3] !== "!";
  const close = named ? chars.indexOf(">", index) : -1;
  return close === -1 ? undefined : { token: { atom: false, source: "(" }, length: close - index + 1 };
}

/** A `{n}`, `{n,}` or `{n,m}` quantifier at `chars[index]`. */
function readQuantifier(chars: string[], index: number): Read | undefined {
  const match = /^\{\d+(?:,\d*)?\}/.exec(chars.slice(index, index + 24).join(""));
  return match === null ? undefined : read(chars, index, match[0].length, false);
}

function readToken(chars: string[], index: number): Read | undefined {
  const char = chars[index]!;
  if (char === "\\") return readEscape(chars, index);
  if (char === "[") return readClass(chars, index);
  if (char === "(") return readGroup(chars, index);
  if (char === "{") return readQuantifier(chars, index);
  return read(chars, index, 1, !")|^$*+?".includes(char));
}

/** Splits a pattern into atoms and structure; undefined when it uses a construct compared only as a whole. */
export function tokenize(pattern: string): Token[] | undefined {
  const chars = [...pattern];
  const tokens: Token[] = [];
  for (let index = 0; index < chars.length; ) {
    const next = readToken(chars, index);
    if (next === undefined) return undefined;
    tokens.push(next.token);
    index += next.length;
  }
  return tokens;
}

// Module-level memo: an atom's code points never change, and a check run sees few distinct atoms.
const atomSets = new Map<string, Uint8Array>();

/** The code points one atom matches, over all of Unicode, as the `u` flag reads it. */
function atomSet(source: string): Uint8Array {
  const known = atomSets.get(source);
  if (known !== undefined) return known;
  const set = new Uint8Array(CODE_POINTS);
  const literal = [...source];
  if (literal.length === 1 && source !== ".") set[source.codePointAt(0)!] = 1;
  else {
    const regExp = new RegExp(`^(?:${source})$`, "u");
    for (let codePoint = 0; codePoint < CODE_POINTS; codePoint++)
      if (regExp.test(String.fromCodePoint(codePoint))) set[codePoint] = 1;
  }
  atomSets.set(source, set);
  return set;
}

/** Relation of one atom after the change to the same atom before it, surrogates removed where a rule says so. */
function compareAtoms(before: string, after: string, beforeDropsSurrogates: boolean, afterDropsSurrogates: boolean) {
  if (before === after && beforeDropsSurrogates === afterDropsSurrogates) return "same";
  const left = atomSet(before);
  const right = atomSet(after);
  let lost = false;
  let gained = false;
  for (let codePoint = 0; codePoint < CODE_POINTS && !(lost && gained); codePoint++) {
    const surrogate = isSurrogate(codePoint);
    const was = left[codePoint] === 1 && !(surrogate && beforeDropsSurrogates);
    const is = right[codePoint] === 1 && !(surrogate && afterDropsSurrogates);
    if (was && !is) lost = true;
    if (is && !was) gained = true;
  }
  return combine(lost ? "narrowed" : "same", gained ? "widened" : "same");
}

/** The relation of the strings `after` accepts to those `before` accepts. */
export function compareTextRules(before: TextRule, after: TextRule): Relation {
  if (before.pattern === after.pattern && before.noLoneSurrogates === after.noLoneSurrogates) return "same";
  if (before.pattern === undefined && after.pattern === undefined)
    return after.noLoneSurrogates ? "narrowed" : "widened";
  if (before.pattern === undefined) return after.noLoneSurrogates || !before.noLoneSurrogates ? "narrowed" : "changed";
  if (after.pattern === undefined) return before.noLoneSurrogates || !after.noLoneSurrogates ? "widened" : "changed";
  const left = tokenize(before.pattern);
  const right = tokenize(after.pattern);
  if (left === undefined || right === undefined || left.length !== right.length) return "changed";
  let relation: Relation = "same";
  for (const [index, token] of left.entries()) {
    const other = right[index]!;
    if (token.atom !== other.atom) return "changed";
    if (!token.atom) {
      if (token.source !== other.source) return "changed";
      continue;
    }
    relation = combine(
      relation,
      compareAtoms(token.source, other.source, before.noLoneSurrogates, after.noLoneSurrogates),
    );
    if (relation === "changed") return relation;
  }
  return relation;
}
