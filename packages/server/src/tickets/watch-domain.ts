/**
 * The watch-domain lookup of ticket issuing (LoginTicket, issueLoginTicket): the origin of the merchant's custom
 * watch domain, or the server's public watch origin. Its failure is 503 VIEWER_DOMAIN_UNAVAILABLE, so it is a step
 * of its own. A merchant's watch origin is read from memory (topic `watchOrigins`, cache/change-feed.ts).
 */
import type { Kysely } from "kysely";
import type { ChangeFeed } from "../cache/change-feed";
import { createReadThroughCache } from "../cache/read-through-cache";
import type { Database } from "../db/schema";

export interface WatchDomainResolver {
  /** The origin (`https://watch.example.com`) under which the merchant's watch pages live. */
  originFor(merchantId: string): Promise<string>;
}

/** How many merchants' watch origins are kept in memory. */
const KEPT_ORIGINS = 10_000;

/** `defaultOrigin` is read per call: with PORT=0 it is only known once the server listens. */
export function createWatchDomainResolver(
  db: Kysely<Database>,
  changes: ChangeFeed,
  defaultOrigin: () => string,
): WatchDomainResolver {
  // A merchant without a watch domain of its own is kept as "", so it is not looked up again.
  const origins = createReadThroughCache<string, string>({
    feed: changes,
    topic: "watchOrigins",
    max: KEPT_ORIGINS,
    load: async (merchantId) => {
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
      const origin = await origins.get(merchantId);
      return origin === undefined || origin === "" ? defaultOrigin() : origin;
    },
  };
}
