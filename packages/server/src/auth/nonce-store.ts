/**
 * The replay-protection contract every nonce store meets (spec §5.3; the same shape as @org/webinar-validator's
 * `NonceStore`): `consume` records the (apiKey, nonce) pair atomically and says whether it was fresh. It is
 * called only after the signature verified, and the pair must be kept at least twice the clock-skew window, in
 * a store every server process shares.
 */
export interface ConsumingNonceStore {
  /** True when the nonce was unused (and is now used); false when it was seen before. */
  consume(apiKey: string, nonce: string, expiresAtMs: number): Promise<boolean>;
  /** Deletes expired entries (a no-op where the store expires them itself). */
  prune(): Promise<number>;
  close?(): Promise<void>;
}

/**
 * How long a consumed nonce must be kept: twice the clock-skew window, since a request is accepted while its
 * timestamp is within ±skew of the server's clock.
 */
export function nonceRetentionMs(clockSkewSeconds: number): number {
  return 2 * clockSkewSeconds * 1000;
}
