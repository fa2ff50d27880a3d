/**
 * The watch-domain lookup of ticket issuing (LoginTicket, issueLoginTicket): the origin of the merchant's custom watch
 * domain, or the server's public watch origin. Its failure is 503 VIEWER_DOMAIN_UNAVAILABLE, so it is a step of its
 * own.
 *
 * A merchant's watch origin is set when the merchant is created and no operation changes it, so a found origin
 * is remembered per process (bounded); an operation that changes it must invalidate this cache.
 */
import type { Kysely } from "kysely";
import type { Database } from "../db/schema";

export interface WatchDomainResolver {
  /** The origin (`https://watch.example.com`) under which the merchant's watch pages live. */
  originFor(merchantId: string): Promise<string>;
}

const CACHE_LIMIT = 10_000;

/** `defaultOrigin` is read per call: with PORT=0 it is only known once the server listens. */
export function createWatchDomainResolver(db: Kysely<Database>, defaultOrigin: () => string): WatchDomainResolver {
  const origins = new Map<string, string | null>();
  return {
    async originFor(merchantId) {
      let origin = origins.get(merchantId);
      if (origin === undefined) {
        const row = await db
          .selectFrom("merchants")
          .select("watch_origin")
          .where("id", "=", merchantId)
          .executeTakeFirst();
        if (row === undefined) return defaultOrigin();
        origin = row.watch_origin;
        if (origins.size >= CACHE_LIMIT) origins.clear();
        origins.set(merchantId, origin);
      }
      return origin ?? defaultOrigin();
    },
  };
}
