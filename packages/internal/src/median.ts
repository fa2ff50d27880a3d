/**
 * The median of a benchmark's rounds: the middle value, or the upper of the two middle ones for an even count, so
 * that it is always one of the figures measured. Benchmarks report it instead of the mean, which one disturbed
 * round would move.
 *
 * @example
 * median([0.31, 0.12, 0.18]); // 0.18
 */
export function median(values: readonly number[]): number {
  if (values.length === 0) throw new RangeError("median of no values");
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
}
