/**
 * Every operation of spec/openapi.yaml and its handler, one file each. The table is keyed by the generated
 * OperationId: an operation added to the spec fails the type check until it has a handler here.
 */
import type { OperationId } from "@org/webinar-types";
import type { VerifiedRequest } from "@org/webinar-validator";
import type { AppServices } from "../../services";
import { handleGetWatchOverview } from "./getWatchOverview";
import type { OperationHandler } from "./handler";
import { handleIssueLoginTicket } from "./issueLoginTicket";
import { handleQueryViewerWatch } from "./queryViewerWatch";
import { handleUpsertViewer } from "./upsertViewer";

export const operationHandlers: { readonly [Op in OperationId]: OperationHandler<Op> } = {
  upsertViewer: handleUpsertViewer,
  issueLoginTicket: handleIssueLoginTicket,
  getWatchOverview: handleGetWatchOverview,
  queryViewerWatch: handleQueryViewerWatch,
};

/** Runs the verified request's operation; resolves the `data` of its success answer. */
export function runOperation(request: VerifiedRequest, services: AppServices): Promise<unknown> {
  // The table pairs each id with its own handler; TypeScript cannot follow the pairing through the union.
  const handler = operationHandlers[request.operationId] as OperationHandler<OperationId>;
  return handler(request, services);
}
