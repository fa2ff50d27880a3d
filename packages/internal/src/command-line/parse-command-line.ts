/**
 * Parsing a command line with node:util parseArgs, strictly: unknown options and missing values are usage errors.
 * parseArgs refuses `--api-secret -abc` as ambiguous, yet a secret, cursor or id may well start with `-`; since every
 * string option here takes a value, the word after one is always its value, and is handed over as `--name=value`.
 */
import { parseArgs } from "node:util";
import type { OptionSpec, OptionValues } from "./option-spec";
import { UsageError } from "./usage-error";

type ParseConfig = NonNullable<Parameters<typeof parseArgs>[0]>["options"];

/** The options as parseArgs declares them. */
export function parseConfig(options: Readonly<Record<string, OptionSpec>>): ParseConfig {
  return Object.fromEntries(
    Object.entries(options).map(([name, spec]) => [
      name,
      {
        type: spec.type,
        ...(spec.multiple === true ? { multiple: true } : {}),
        ...(spec.short === undefined ? {} : { short: spec.short }),
      },
    ]),
  );
}

function stringOptionNamed(arg: string, options: Readonly<Record<string, OptionSpec>>): boolean {
  if (arg.startsWith("--")) return options[arg.slice(2)]?.type === "string";
  if (/^-[^-]$/.test(arg))
    return Object.values(options).some((spec) => spec.short === arg[1] && spec.type === "string");
  return false;
}

/**
 * `argv` with each string option and the word after it joined (`--api-secret -abc` becomes `--api-secret=-abc`),
 * so a value that starts with `-` is read as the value it is. Words after `--` are left as they are.
 */
export function joinOptionValues(argv: readonly string[], options: Readonly<Record<string, OptionSpec>>): string[] {
  const joined: string[] = [];
  for (let index = 0; index < argv.length; index += 1) {
    const arg = argv[index]!;
    if (arg === "--") return [...joined, ...argv.slice(index)];
    if (stringOptionNamed(arg, options) && index + 1 < argv.length) {
      joined.push(
        arg.startsWith("--") ? `${arg}=${argv[index + 1]}` : `--${longName(arg, options)}=${argv[index + 1]}`,
      );
      index += 1;
    } else joined.push(arg);
  }
  return joined;
}

function longName(short: string, options: Readonly<Record<string, OptionSpec>>): string {
  return Object.entries(options).find(([, spec]) => spec.short === short[1])![0];
}

/** The values and positionals of `argv`; a {@link UsageError} for an unknown option or a missing value. */
export function parseCommandLine(
  argv: readonly string[],
  options: Readonly<Record<string, OptionSpec>>,
  { allowPositionals = false }: { allowPositionals?: boolean } = {},
): { values: OptionValues; positionals: string[] } {
  try {
    const parsed = parseArgs({
      args: joinOptionValues(argv, options),
      options: parseConfig(options),
      strict: true,
      allowPositionals,
    });
    return { values: parsed.values as OptionValues, positionals: parsed.positionals };
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}
