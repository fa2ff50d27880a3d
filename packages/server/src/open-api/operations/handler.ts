/** The shape of an Open API operation's handler: the verified request in, the `data` of its success answer out. */
import type { OperationId } from "@org/webinar-types";
import type { VerifiedRequestOf } from "@org/webinar-validator";
import type { AppServices } from "../../services";

/**
 * Runs the business logic of a request @org/webinar-validator has verified (signature, nonce, body against the
 * operation's schema); throws ServiceError for the operation's error answers. It does no authentication.
 */
export type OperationHandler<Op extends OperationId> = (
  request: VerifiedRequestOf<Op>,
  services: AppServices,
) => Promise<unknown>;
