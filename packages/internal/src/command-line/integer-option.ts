/** Whole numbers on a command line: decimal digits only, no sign, no exponent, within JavaScript's safe integers. */
import { UsageError } from "./usage-error";

/** The number `value` of `--name` writes, at least `least`; a {@link UsageError} otherwise. */
export function integerOption(name: string, value: string, least: 0 | 1 = 0): number {
  const number = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(number) || number < least)
    throw new UsageError(
      `--${name} must be a ${least === 1 ? "positive" : "whole"} number, got ${JSON.stringify(value)}`,
    );
  return number;
}
