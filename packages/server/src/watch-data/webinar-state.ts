/** The webinar a watch-data query names, with its live lifecycle; null when it is not the merchant's. */
import type { WebinarDirectory } from "../webinars/webinar-directory";
import type { LiveState } from "./data-state";

export interface WatchedWebinar extends LiveState {
  id: string;
}

export async function findWatchedWebinar(
  webinars: WebinarDirectory,
  merchantId: string,
  ticketCode: string,
): Promise<WatchedWebinar | null> {
  const webinar = await webinars.byTicketCode(ticketCode);
  if (webinar === undefined || webinar.merchantId !== merchantId) return null;
  const { id, liveStatus, liveStartedAt, liveFinalizedAt } = webinar;
  return { id, liveStatus, liveStartedAt, liveFinalizedAt };
}
