/**
 * The four Open API operations behind @org/webinar-validator. The validator has already checked origin, path,
 * method, headers, body size, timestamp, key, signature, merchant status and nonce, and parsed, validated and
 * trimmed the body; this module only runs the business logic of the verified request (no second validation).
 */
import type { VerifiedRequest } from "@org/webinar-validator";
import type { NonceClaim } from "../auth/nonce-claim";
import { dependencyStep } from "../dependency";
import type { AppServices } from "../services";
import { issueLoginTicket } from "../tickets/issue";
import { upsertViewer } from "../viewers/upsert";
import { getWatchOverview, queryViewerWatch } from "./watch-data";

/** The `data` of the operation's success answer; throws ServiceError for the spec's error answers. */
export async function runOperation(request: VerifiedRequest, services: AppServices, claim?: NonceClaim): Promise<unknown> {
  const { merchantId } = request;
  // With a claim (app.ts), upsert and ticket issuing consume the nonce in their own statement; the rest first.
  if (claim !== undefined && request.operationId !== "upsertViewer" && request.operationId !== "issueLoginTicket") await claim.consumeSeparately();
  switch (request.operationId) {
    case "upsertViewer":
      return dependencyStep("AUTH_DEPENDENCY_UNAVAILABLE", "viewer storage is temporarily unavailable", () =>
        upsertViewer(
          { merchantId, ...request.body },
          { db: services.db, moderator: services.moderator, uidRange: { min: services.config.uidMin, max: services.config.uidMax }, runtime: services.runtime },
          claim,
        ),
      );
    case "issueLoginTicket":
      return issueLoginTicket(
        { merchantId, uid: request.body.uid, ticketCode: request.body.ticketCode },
        {
          db: services.db,
          webinars: services.webinarMetadata,
          watchDomains: services.watchDomains,
          ticketTtlSeconds: services.config.ticketTtlSeconds,
          runtime: services.runtime,
        },
        claim,
      );
    case "getWatchOverview":
      return getWatchOverview(services.db, merchantId, request.body);
    case "queryViewerWatch":
      return queryViewerWatch(services.db, merchantId, request.body, services.cursorKey);
  }
}
