/**
 * The watch-domain lookup of ticket issuing (LoginTicket, issueLoginTicket): the origin of the merchant's custom
 * watch domain, or the server's public watch origin. Its failure is 503 VIEWER_DOMAIN_UNAVAILABLE, so it is a step
 * of its own.
 *
 * A merchant's watch origin is written once, when the merchant is created (admin createMerchant), and no write
 * changes it afterwards, so a copy in memory never goes stale and needs no change topic: the origins are kept in
 * an LRU cache. A write that changes a merchant's watch origin must make this a read-through cache of a topic it
 * announces (cache/read-through-cache.ts).
 */
import type { Kysely } from "kysely";
import { LRUCache } from "lru-cache";
import type { Database } from "../db/schema";

export interface WatchDomainResolver {
  /** The origin (`https://watch.example.com`) under which the merchant's watch pages live. */
  originFor(merchantId: string): Promise<string>;
}

/** How many merchants' watch origins are kept in memory. */
const KEPT_ORIGINS = 10_000;

/** `defaultOrigin` is read per call: with PORT=0 it is only known once the server listens. */
export function createWatchDomainResolver(db: Kysely<Database>, defaultOrigin: () => string): WatchDomainResolver {
  // A merchant without a watch domain of its own is kept as "", so it is not looked up again; an unknown merchant
  // is not kept (fetchMethod answering undefined), so one created a moment later by another process is found.
  const origins = new LRUCache<string, string>({
    max: KEPT_ORIGINS,
    fetchMethod: async (merchantId) => {
      const row = await db
        .selectFrom("merchants")
        .select("watch_origin")
        .where("id", "=", merchantId)
        .executeTakeFirst();
      return row === undefined ? undefined : (row.watch_origin ?? "");
    },
  });
  return {
    async originFor(merchantId) {
      const origin = await origins.fetch(merchantId);
      return origin === undefined || origin === "" ? defaultOrigin() : origin;
    },
  };
}
