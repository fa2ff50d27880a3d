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

export function createWebinarMetadataSource(db: Kysely<Database>): WebinarMetadataSource {
  return {
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
}
