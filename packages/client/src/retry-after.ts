/**
 * `Retry-After` (RFC 9110, section 10.2.3) is either a number of seconds or an HTTP date. A date is read against the
 * server's own `Date` header when the answer has one, so a client whose clock is off still waits as long as the
 * server meant.
 */
const DELAY_SECONDS = /^\d+$/;

/**
 * Milliseconds to wait according to a `Retry-After` value, or `undefined` when there is none or it is malformed.
 * A date in the past means "now" (0).
 *
 * @param value the header value
 * @param serverNowMs the server's "now" in epoch milliseconds: its `Date` header, or the corrected local clock
 */
export function retryAfterMs(value: string | null | undefined, serverNowMs: number): number | undefined {
  if (value === null || value === undefined) return undefined;
  const trimmed = value.trim();
  if (DELAY_SECONDS.test(trimmed)) return Number(trimmed) * 1000;
  // Only the HTTP-date forms are dates here; Date.parse would also accept "1" or "2026" as a year.
  if (!/[A-Za-z]/.test(trimmed)) return undefined;
  const at = Date.parse(trimmed);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - serverNowMs);
}
