/** An option that must be a positive safe integer: the value, or a RangeError naming the option. */
export function positiveInteger(value: number, name: string): number {
  if (!Number.isSafeInteger(value) || value <= 0)
    throw new RangeError(`${name} must be a positive integer, got ${value}`);
  return value;
}
