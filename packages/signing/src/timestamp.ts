/**
 * The current `X-Timestamp`: whole Unix seconds as a decimal string (the spec's `Timestamp` header), never
 * milliseconds. Pass a clock returning milliseconds (like `Date.now`) to control the time in tests.
 *
 * @example
 * unixTimestamp(); // "1767225600"
 * unixTimestamp(() => 1767225600999); // "1767225600"
 */
export function unixTimestamp(now: () => number = Date.now): string {
  const milliseconds = now();
  if (!Number.isFinite(milliseconds) || milliseconds < 0) {
    throw new RangeError(
      `unixTimestamp: the clock returned ${milliseconds}, not a non-negative number of milliseconds`,
    );
  }
  return String(Math.floor(milliseconds / 1000));
}

// Eleven digits reach the year 5138; a 13-digit value is a millisecond timestamp, the most common mistake.
const UNIX_SECONDS = /^(0|[1-9][0-9]{0,10})$/;

/**
 * Whether a string is Unix seconds in the form `X-Timestamp` requires: decimal digits, no sign, no leading zero,
 * at most 11 digits (so a millisecond value is rejected). It does not check the clock-skew window.
 *
 * @example
 * isUnixSeconds("1767225600"); // true
 * isUnixSeconds("1767225600000"); // false (milliseconds)
 */
export function isUnixSeconds(value: unknown): value is string {
  return typeof value === "string" && UNIX_SECONDS.test(value);
}
