/**
 * The webinar-metadata lookup of ticket issuing (issueLoginTicket): which webinar a `ticketCode` names within the
 * merchant, and its state. Its failure is 503 PUBLIC_METADATA_UNAVAILABLE, so it is a step of its own.
 */
import type { Kysely } from "kysely";
import type { Database, WebinarStatus } from "../db/schema";

export interface WebinarMetadata {
  id: string;
  status: WebinarStatus;
}

export interface WebinarMetadataSource {
  /** The merchant's webinar with this code, or null (another merchant's webinar is treated as nonexistent: WEBINAR_NOT_FOUND). */
  find(merchantId: string, ticketCode: string): Promise<WebinarMetadata | null>;
}

/** Sources reading the `webinars` table of a database: ticket issuing may fold their lookup into its statement. */
const databaseSources = new WeakMap<WebinarMetadataSource, Kysely<Database>>();

export function createWebinarMetadataSource(db: Kysely<Database>): WebinarMetadataSource {
  const source: WebinarMetadataSource = {
    async find(merchantId, ticketCode) {
      const row = await db
        .selectFrom("webinars")
        .select(["id", "status"])
        .where("ticket_code", "=", ticketCode)
        .where("merchant_id", "=", merchantId)
        .executeTakeFirst();
      return row ?? null;
    },
  };
  databaseSources.set(source, db);
  return source;
}

/** The database `source` reads, when it is this module's source (and not another implementation). */
export function databaseOf(source: WebinarMetadataSource): Kysely<Database> | undefined {
  return databaseSources.get(source);
}
