/**
 * The watch sessions behind the `webinar_session` cookie, read from memory. A session (token hash -> merchant,
 * viewer, webinar, expiry) is written once by the ticket exchange and never changed afterwards, so a copy in this
 * process stays right until the session expires: the cache keeps up to MAX_CACHED_SESSIONS of them (least recently
 * used go first), answers none after its expiry, and reads the database for a session it does not hold. Unknown
 * tokens are not remembered, so a session made a moment ago by another process is found.
 */
import type { Kysely } from "kysely";
import { LRUCache } from "lru-cache";
import type { Database } from "../db/schema";
import type { Runtime } from "../runtime";
import { hashToken } from "../tickets/token";

/** The registered viewer of a watch session. */
export interface WatchSessionRecord {
  merchantId: string;
  uid: number;
  webinarId: string;
  expiresAtMs: number;
}

export interface WatchSessions {
  /** The unexpired session of a cookie's token, or undefined. */
  find(token: string): Promise<WatchSessionRecord | undefined>;
}

/** About 200 bytes each: at most some 20 MB, more than the viewers one process carries. */
export const MAX_CACHED_SESSIONS = 100_000;

export function createWatchSessions(
  deps: { db: Kysely<Database>; runtime: Runtime },
  max = MAX_CACHED_SESSIONS,
): WatchSessions {
  // Each entry lives until its session expires, on the server's clock; every read asks the clock afresh
  // (ttlResolution 0), so a session is refused from the very moment it expires.
  const cache = new LRUCache<string, WatchSessionRecord>({
    max,
    perf: { now: () => deps.runtime.now() },
    ttlResolution: 0,
  });
  return {
    async find(token) {
      const hash = hashToken(token);
      const cached = cache.get(hash);
      if (cached !== undefined) return cached;
      const now = deps.runtime.now();
      const row = await deps.db
        .selectFrom("watch_sessions")
        .select(["merchant_id", "uid", "webinar_id", "expires_at"])
        .where("session_hash", "=", hash)
        .where("expires_at", ">", new Date(now))
        .executeTakeFirst();
      if (row === undefined) return undefined;
      const session = {
        merchantId: row.merchant_id,
        uid: row.uid,
        webinarId: row.webinar_id,
        expiresAtMs: new Date(row.expires_at).getTime(),
      };
      cache.set(hash, session, { ttl: session.expiresAtMs - now });
      return session;
    },
  };
}
