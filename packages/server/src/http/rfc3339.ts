/** The timestamps of every API answer: RFC 3339 in UTC, to the second. */

/** RFC 3339 UTC without milliseconds, e.g. `2026-11-21T09:31:00Z`. */
export function rfc3339(milliseconds: number): string {
  return new Date(Math.floor(milliseconds / 1000) * 1000).toISOString().replace(".000Z", "Z");
}
