/**
 * A verified request's nonce, not yet consumed, handed to the operation so that consuming it and the operation's
 * write are ONE statement (one round trip instead of two). Same guarantees as the nonce store's checking
 * statement (nonce-store-db.ts): the nonce is inserted (primary key (api_key, nonce), ON CONFLICT DO NOTHING)
 * only while the key and its merchant are ACTIVE, and the operation's write runs only when that insert
 * happened, in the same statement, hence the same transaction. Whatever path does not fold it consumes the
 * claim first with the nonce store (app.ts), so every verified request consumes its nonce exactly once, and the
 * answers keep their order (409 OPEN_API_REPLAYED before any business answer).
 */

import { StaleCredentialError } from "./credential-cache";

export interface NonceClaim {
  readonly apiKey: string;
  readonly nonce: string;
  readonly expiresAt: Date;
  /** Set once a statement consumed the nonce (then later statements of the request run without it). */
  consumed: boolean;
  /**
   * Consumes the nonce on its own (the nonce store's checking statement) unless already consumed; throws
   * NonceReplayedError, StaleCredentialError, or NonceStoreFailure when the store failed.
   */
  consumeSeparately(): Promise<void>;
}

/** The nonce store failed while consuming a claim: answered as the verifier answers it (503). */
export class NonceStoreFailure extends Error {
  override readonly name = "NonceStoreFailure";
  constructor(cause: unknown) {
    super("the nonce store failed", { cause });
  }
}

/** A claim for a verified request; `consume` is the nonce store's (checking) consume. */
export function createNonceClaim(apiKey: string, nonce: string, expiresAtMs: number, consume: (apiKey: string, nonce: string, expiresAtMs: number) => Promise<boolean>): NonceClaim {
  const claim: NonceClaim = {
    apiKey,
    nonce,
    expiresAt: new Date(expiresAtMs),
    consumed: false,
    async consumeSeparately() {
      if (claim.consumed) return;
      let fresh: boolean;
      try {
        fresh = await consume(apiKey, nonce, expiresAtMs);
      } catch (error) {
        if (error instanceof StaleCredentialError) throw error;
        throw new NonceStoreFailure(error);
      }
      if (!fresh) throw new NonceReplayedError();
      claim.consumed = true;
    },
  };
  return claim;
}

/** The nonce was used before: the request is answered 409 OPEN_API_REPLAYED and nothing was written. */
export class NonceReplayedError extends Error {
  override readonly name = "NonceReplayedError";
  constructor() {
    super("nonce already used");
  }
}

/**
 * CTEs `key_state` (one row, `active`) and `consumed` (a row when the nonce was inserted now) with the claim's
 * parameters at positions `first` (api key), `first + 1` (nonce), `first + 2` (expiry).
 */
export function claimCtes(first: number): string {
  const [key, nonce, expires] = [first, first + 1, first + 2].map((n) => `$${n}`);
  return `
    key_state as (
      select exists (
        select 1 from api_keys k join merchants m on m.id = k.merchant_id
        where k.api_key = ${key}::text and k.status = 'ACTIVE' and m.status = 'ACTIVE'
      ) as active
    ), consumed as (
      insert into open_api_nonces (api_key, nonce, expires_at)
      select ${key}::text, ${nonce}::text, ${expires}::timestamptz from key_state where active
      on conflict (api_key, nonce) do nothing
      returning 1
    )`;
}

/** The claim's parameters, in `claimCtes` order. */
export function claimParameters(claim: NonceClaim): unknown[] {
  return [claim.apiKey, claim.nonce, claim.expiresAt];
}
