/**
 * How the `webinar` and `webinar-conformance` CLIs read their arguments: strictly (an unknown option, a missing
 * value or an unexpected word is a usage error, exit 2), and a string option's value is the word after it even
 * when that word starts with `-` (an API secret, a cursor or an id may).
 */
import { describe, expect, it } from "vitest";
import type { OptionSpec } from "./option-spec";
import { joinOptionValues, parseCommandLine } from "./parse-command-line";
import { UsageError } from "./usage-error";

const options: Record<string, OptionSpec> = {
  "api-secret": { type: "string", help: "the secret" },
  cursor: { type: "string", short: "c", help: "the page to read" },
  tag: { type: "string", multiple: true, help: "a tag" },
  json: { type: "boolean", help: "print JSON" },
  help: { type: "boolean", short: "h", help: "show help" },
};

describe("joinOptionValues: a string option and the word after it become one `--name=value`", () => {
  const cases: Array<{ name: string; argv: string[]; joined: string[] }> = [
    { name: "a value that starts with `-`", argv: ["--api-secret", "-Xa1"], joined: ["--api-secret=-Xa1"] },
    { name: "a value that is `--`-like", argv: ["--cursor", "--json"], joined: ["--cursor=--json"] },
    { name: "a short option, under its long name", argv: ["-c", "-abc"], joined: ["--cursor=-abc"] },
    { name: "a boolean option takes no value", argv: ["--json", "-h"], joined: ["--json", "-h"] },
    {
      name: "`--name=value` is left as it is",
      argv: ["--api-secret=-a", "--json"],
      joined: ["--api-secret=-a", "--json"],
    },
    { name: "words after `--` are left as they are", argv: ["--", "--cursor", "-a"], joined: ["--", "--cursor", "-a"] },
    { name: "a string option last, without a value", argv: ["--json", "--cursor"], joined: ["--json", "--cursor"] },
  ];
  for (const { name, argv, joined } of cases) {
    it(name, () => {
      expect(joinOptionValues(argv, options)).toEqual(joined);
    });
  }
});

describe("parseCommandLine: the values of a well-formed command line", () => {
  const cases: Array<{ name: string; argv: string[]; values: Record<string, unknown>; positionals?: string[] }> = [
    {
      name: "a secret that starts with `-` is the secret, as with `--api-secret=`",
      argv: ["--api-secret", "-Xa", "--json"],
      values: { "api-secret": "-Xa", json: true },
    },
    { name: "a short option's value under its long name", argv: ["-c", "-next"], values: { cursor: "-next" } },
    { name: "a repeated option gathers its values", argv: ["--tag", "a", "--tag", "-b"], values: { tag: ["a", "-b"] } },
    {
      name: "positionals, when allowed",
      argv: ["viewers", "export", "--json"],
      values: { json: true },
      positionals: ["viewers", "export"],
    },
  ];
  for (const { name, argv, values, positionals = [] } of cases) {
    it(name, () => {
      const parsed = parseCommandLine(argv, options, { allowPositionals: positionals.length > 0 });
      expect(parsed.values).toEqual(values);
      expect(parsed.positionals).toEqual(positionals);
    });
  }
});

describe("parseCommandLine: a malformed command line is a UsageError", () => {
  const cases: Array<{ name: string; argv: string[]; message: RegExp; allowPositionals?: boolean }> = [
    { name: "an unknown option", argv: ["--secret", "x"], message: /--secret/ },
    { name: "a string option without a value", argv: ["--cursor"], message: /--cursor/ },
    { name: "a value given to a boolean option", argv: ["--json=yes"], message: /--json/ },
    { name: "a word where no positional is allowed", argv: ["viewers"], message: /viewers/ },
    {
      name: "an unknown option among positionals",
      argv: ["viewers", "--verbose"],
      message: /--verbose/,
      allowPositionals: true,
    },
  ];
  for (const { name, argv, message, allowPositionals = false } of cases) {
    it(name, () => {
      const parse = () => parseCommandLine(argv, options, { allowPositionals });
      expect(parse).toThrow(UsageError);
      expect(parse).toThrow(message);
    });
  }
});
