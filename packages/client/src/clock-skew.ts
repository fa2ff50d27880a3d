/**
 * Learns how far the local clock is from the server's, from the `Date` header of every answer. The server rejects
 * a timestamp more than ±300 s (deployer-configurable, `clockSkewSeconds` of the spec's limits) from its own time
 * with 401 OPEN_API_UNAUTHORIZED, which a request cannot tell apart from a wrong secret; knowing the offset lets
 * the client sign with the server's time instead and retry such a 401 once.
 *
 * `Date` has a resolution of one second and is stamped before the answer travels back, so offsets below a
 * threshold (30 s by default, well inside the accepted window, well above that noise) are ignored.
 */

/** The default threshold: offsets up to 30 s are noise, beyond that the client signs with the server's time. */
export const DEFAULT_SKEW_THRESHOLD_SECONDS = 30;

/** The offset between the server's clock and the local one, as learned from `Date` headers. */
export class ClockSkew {
  #offsetMs = 0;
  readonly #thresholdMs: number;

  constructor(thresholdSeconds: number = DEFAULT_SKEW_THRESHOLD_SECONDS) {
    if (!Number.isFinite(thresholdSeconds) || thresholdSeconds < 0) {
      throw new RangeError(`clockSkew.thresholdSeconds must be a non-negative number, got ${String(thresholdSeconds)}`);
    }
    this.#thresholdMs = thresholdSeconds * 1000;
  }

  /** Server time minus local time, in milliseconds, from the latest `Date` header (0 before any answer). */
  get offsetMs(): number {
    return this.#offsetMs;
  }

  /** Records the offset an answer reveals; a missing or unparsable `Date` header changes nothing. */
  learn(dateHeader: string | null, localNowMs: number): void {
    const serverNowMs = dateHeader === null ? Number.NaN : Date.parse(dateHeader);
    if (Number.isNaN(serverNowMs)) return;
    this.#offsetMs = serverNowMs - localNowMs;
  }

  /** The correction to add to the local clock when signing: the offset once it exceeds the threshold, else 0. */
  correctionMs(): number {
    return Math.abs(this.#offsetMs) > this.#thresholdMs ? this.#offsetMs : 0;
  }

  /** Whether signing with `usedCorrectionMs` was off by more than the threshold from what is known now. */
  wasSkewed(usedCorrectionMs: number): boolean {
    return Math.abs(this.correctionMs() - usedCorrectionMs) > this.#thresholdMs;
  }
}
