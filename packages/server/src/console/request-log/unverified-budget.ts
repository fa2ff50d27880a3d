/**
 * How many unverified requests (refused before a signature checked out) one API key may log per minute in this
 * process (WEBINAR_REQUEST_LOG_UNVERIFIED_PER_MINUTE, 60 by default): anyone can send requests naming a merchant's
 * key, so without a bound a flood of them would fill the merchant's log and its database with noise. Past the
 * bound a request is counted, not stored: the count is reported once per minute (a log line and the
 * `webinar_request_log_unverified_dropped_total` metric). The minute is the clock's; the counts start over each
 * minute, so the map holds at most the keys of one minute.
 */
export interface UnverifiedBudget {
  /** Whether one more unverified request of this key may be logged at `nowMs`; counts it either way. */
  admit(apiKey: string, nowMs: number): boolean;
}

export interface DroppedMinute {
  /** Requests counted and not stored in that minute. */
  dropped: number;
  /** Keys that went over the bound in that minute. */
  keys: number;
}

/**
 * @example
 * const budget = unverifiedBudget(60, (minute) => logger.warn(minute, "unverified requests not logged"));
 * if (!entry.verified && !budget.admit(entry.apiKey, runtime.now())) return;
 */
export function unverifiedBudget(
  perKeyPerMinute: number,
  onDropped: (minute: DroppedMinute) => void,
): UnverifiedBudget {
  let minute = -1;
  let used = new Map<string, number>();
  let dropped = 0;
  let keysOver = 0;
  return {
    admit(apiKey, nowMs) {
      const thisMinute = Math.floor(nowMs / 60_000);
      if (thisMinute !== minute) {
        if (dropped > 0) onDropped({ dropped, keys: keysOver });
        minute = thisMinute;
        used = new Map();
        dropped = 0;
        keysOver = 0;
      }
      const count = (used.get(apiKey) ?? 0) + 1;
      used.set(apiKey, count);
      if (count <= perKeyPerMinute) return true;
      if (count === perKeyPerMinute + 1) keysOver += 1;
      dropped += 1;
      return false;
    },
  };
}
