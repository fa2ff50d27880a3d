/**
 * The webinar-metadata lookup of ticket issuing (spec §4.4): which webinar a `ticketCode` names within the
 * merchant, and its state. Its failure is 503 PUBLIC_METADATA_UNAVAILABLE, so it is a step of its own.
 */
import type { Kysely } from "kysely";
import { statement } from "../db/compiled";
import type { Database, WebinarStatus } from "../db/schema";

export interface WebinarMetadata {
  id: string;
  status: WebinarStatus;
}

export interface WebinarMetadataSource {
  /** The merchant's webinar with this code, or null (another merchant's webinar is treated as nonexistent, §1.4). */
  find(merchantId: string, ticketCode: string): Promise<WebinarMetadata | null>;
}

const findWebinar = statement<WebinarMetadata>("select id, status from webinars where ticket_code = $1 and merchant_id = $2");

export function createWebinarMetadataSource(db: Kysely<Database>): WebinarMetadataSource {
  return {
    async find(merchantId, ticketCode) {
      const [row] = await findWebinar(db, [ticketCode, merchantId]);
      return row ?? null;
    },
  };
}
