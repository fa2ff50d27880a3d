/** Operation issueLoginTicket: a one-time login ticket and its watch URL for a viewer (tickets/issue.ts). */
import { issueLoginTicket } from "../../tickets/issue";
import type { OperationHandler } from "./handler";

export const handleIssueLoginTicket: OperationHandler<"issueLoginTicket"> = async ({ merchantId, body }, services) =>
  issueLoginTicket(
    { merchantId, uid: body.uid, ticketCode: body.ticketCode },
    {
      db: services.db,
      webinars: services.webinarMetadata,
      watchDomains: services.watchDomains,
      ticketTtlSeconds: services.config.ticketTtlSeconds,
      runtime: services.runtime,
    },
  );
