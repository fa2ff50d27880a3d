/** Operation issueLoginTicket: a one-time login ticket and its watch URL for a viewer (tickets/issue.ts). */
import { issueLoginTicket as issue } from "../tickets/issue";
import type { OperationHandler } from "./handler";

export const issueLoginTicket: OperationHandler<"issueLoginTicket"> = async ({ merchantId, body }, services) =>
  issue(
    { merchantId, uid: body.uid, ticketCode: body.ticketCode },
    {
      db: services.db,
      webinars: services.webinarMetadata,
      watchDomains: services.watchDomains,
      ticketTtlSeconds: services.config.ticketTtlSeconds,
      runtime: services.runtime,
    },
  );
