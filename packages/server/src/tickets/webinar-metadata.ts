/**
 * The webinar-metadata lookup of ticket issuing (issueLoginTicket): which webinar a `ticketCode` names within the
 * merchant, and its state. Its failure is 503 PUBLIC_METADATA_UNAVAILABLE, so it is a step of its own.
 */
import type { WebinarStatus } from "../db/schema";
import type { WebinarDirectory } from "../webinars/webinar-directory";

export interface WebinarMetadata {
  id: string;
  status: WebinarStatus;
}

export interface WebinarMetadataSource {
  /** The merchant's webinar with this code, or null (another merchant's webinar is treated as nonexistent: WEBINAR_NOT_FOUND). */
  find(merchantId: string, ticketCode: string): Promise<WebinarMetadata | null>;
}

export function createWebinarMetadataSource(webinars: WebinarDirectory): WebinarMetadataSource {
  return {
    async find(merchantId, ticketCode) {
      const webinar = await webinars.byTicketCode(ticketCode);
      return webinar === undefined || webinar.merchantId !== merchantId
        ? null
        : { id: webinar.id, status: webinar.status };
    },
  };
}
