/**
 * Text as people type it into a name or an id field: words in mixed case, digits, spaces between them, Chinese
 * characters, emoji, and the mixtures of these ("Qin 2", "张三 3", "anna 🎉"). Uniform random code points, which
 * fast-check draws by default, almost never look like this, so a server that fails on ordinary names would pass
 * a fuzzer that only draws them. Edge cases (white space at either end, the longest allowed text, one character)
 * are drawn beside them.
 */
import fc from "fast-check";

const LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
const DIGITS = "0123456789";
/** Common characters of Chinese names and words, and a few of Japanese and Korean. */
const CJK =
  "张王李赵刘陈杨黄周吴秦孙马朱胡林郭何高罗郑梁谢宋唐许韩冯邓曹彭曾肖田董潘袁蔡蒋余于杜叶程魏苏吕丁任沈姚卢伟芳娜敏静丽强磊军洋勇艳杰涛明超秀霞平刚桂英华玲さくら김민준";
/** Syllables of Chinese names in pinyin and of English names: names people type are made of these. */
const SYLLABLES = [
  "qin",
  "qi",
  "qian",
  "qing",
  "qiu",
  "quan",
  "zhang",
  "wang",
  "li",
  "liu",
  "chen",
  "yang",
  "zhao",
  "huang",
  "xiao",
  "ming",
  "hua",
  "wei",
  "jun",
  "yan",
  "lin",
  "an",
  "na",
  "mar",
  "tin",
  "ja",
  "son",
  "el",
  "ben",
  "kate",
];
const EMOJI = ["🎉", "😀", "👍", "🚀", "❤️", "👩‍💻", "🇨🇳", "🙂", "🌸", "⭐"];

const charOf = (alphabet: string) => fc.constantFrom(...alphabet);
const join = (parts: readonly string[]) => parts.join("");

/** A word in any case (lower, Capitalized, UPPER or mixed): name syllables, or letters at random. */
const letters = fc.oneof(
  fc.array(fc.constantFrom(...SYLLABLES), { minLength: 1, maxLength: 2 }),
  fc.array(charOf(LETTERS), { minLength: 1, maxLength: 8 }),
);
const word = fc.tuple(letters, fc.constantFrom("as-is", "lower", "title", "upper")).map(([letters, shape]) => {
  const text = join(letters);
  if (shape === "lower") return text.toLowerCase();
  if (shape === "upper") return text.toUpperCase();
  if (shape === "title") return `${text[0]!.toUpperCase()}${text.slice(1).toLowerCase()}`;
  return text;
});

const number = fc.array(charOf(DIGITS), { minLength: 1, maxLength: 4 }).map(join);
const cjkWord = fc.array(charOf(CJK), { minLength: 1, maxLength: 4 }).map(join);
const emoji = fc.constantFrom(...EMOJI);

/** One token of a typed name. */
const token = fc.oneof(
  { arbitrary: word, weight: 5 },
  { arbitrary: number, weight: 3 },
  { arbitrary: cjkWord, weight: 3 },
  { arbitrary: emoji, weight: 1 },
);

/** Tokens joined by a space, a hyphen, a dot, an underscore or nothing: "Qin 2", "anna-maria", "张三3". */
const typed = fc
  .array(fc.tuple(token, fc.constantFrom(" ", " ", "-", ".", "_", "")), { minLength: 1, maxLength: 4 })
  .map((parts) =>
    parts.map(([text, separator], index) => (index === parts.length - 1 ? text : `${text}${separator}`)).join(""),
  );

/** Text as people type it, at most `maxLength` code points (and at least one). */
export function humanText(maxLength: number): fc.Arbitrary<string> {
  const fits = (text: string) => {
    const length = [...text].length;
    return length >= 1 && length <= maxLength;
  };
  const edges = fc.oneof(
    // White space around a typed name: trimmed by the server where the spec says so.
    typed.map((text) => ` ${text}\t`),
    // The longest allowed text, of letters or of Chinese characters.
    fc.constantFrom("x", "张").map((unit) => unit.repeat(maxLength)),
    charOf(`${LETTERS}${DIGITS}${CJK}`),
  );
  return fc.oneof({ arbitrary: typed, weight: 8 }, { arbitrary: edges, weight: 1 }).filter(fits);
}
