/**
 * A short-lived per-process cache of ACTIVE API-key credentials (secret opened, merchant ACTIVE) that spares the
 * key lookup's round trip, WITHOUT delaying a revocation or a suspension: it is only used together with the
 * database nonce store in its checking mode, whose one statement consumes the nonce only if the key is still
 * ACTIVE and its merchant still ACTIVE (see nonce-store-db.ts). When that check fails, nothing is consumed, the
 * entry is dropped and the request is verified once more from the database (app.ts), so a revoked key is
 * answered 401 and a suspended merchant 403 on the very next request, exactly as without the cache.
 *
 * Only ACTIVE credentials of ACTIVE merchants are cached (a suspended merchant, an unknown or revoked key is
 * read every time, so a reactivation also applies at once). A key's secret and merchant never change.
 */
import type { ApiKeyStore, Credential } from "./api-keys";

/** Thrown by the checking nonce store when the key or its merchant is no longer ACTIVE (nothing consumed). */
export class StaleCredentialError extends Error {
  override readonly name = "StaleCredentialError";
  constructor(
    readonly apiKey: string,
    readonly nonce: string,
  ) {
    super("the API key or its merchant is no longer active");
  }
}

export interface CredentialCache {
  /** The credential: from the cache while fresh, otherwise from the store (and cached when ACTIVE). */
  find(apiKey: string): Promise<Credential | null>;
  /** Drops the key's entry; reads already in flight no longer fill the cache. */
  invalidate(apiKey: string): void;
  /** Records that the request signed with (apiKey, nonce) met a stale credential (to be verified again). */
  markStale(apiKey: string, nonce: string): void;
  /** Whether (apiKey, nonce) met a stale credential; forgets it. */
  takeStale(apiKey: string, nonce: string): boolean;
}

const CACHE_LIMIT = 10_000;
const STALE_LIMIT = 1_000;

export function createCredentialCache(store: Pick<ApiKeyStore, "findActive">, options: { ttlMs: number; now: () => number }): CredentialCache {
  const entries = new Map<string, { credential: Credential; until: number }>();
  const stale = new Set<string>();
  // Bumped by every invalidation: a database read that began before it does not fill the cache.
  let generation = 0;
  return {
    async find(apiKey) {
      const entry = entries.get(apiKey);
      const now = options.now();
      if (entry !== undefined && entry.until > now) return entry.credential;
      const startedAt = generation;
      const credential = await store.findActive(apiKey);
      if (credential === null || credential.merchantStatus !== "ACTIVE") {
        entries.delete(apiKey);
      } else if (startedAt === generation) {
        if (entries.size >= CACHE_LIMIT) entries.clear();
        entries.set(apiKey, { credential, until: now + options.ttlMs });
      }
      return credential;
    },
    invalidate(apiKey) {
      generation += 1;
      entries.delete(apiKey);
    },
    markStale(apiKey, nonce) {
      if (stale.size >= STALE_LIMIT) stale.clear();
      stale.add(`${apiKey}\n${nonce}`);
    },
    takeStale(apiKey, nonce) {
      return stale.delete(`${apiKey}\n${nonce}`);
    },
  };
}
