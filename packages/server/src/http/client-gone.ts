/**
 * A client that closes its connection before its request is complete (mid-body) is not a server failure: there
 * is nobody left to answer, so it is logged at info and never as a 500 INTERNAL_ERROR.
 */
import type { IncomingMessage } from "node:http";

/** Whether the client went away before sending its whole request. */
export function clientWentAway(incoming: IncomingMessage | undefined): boolean {
  return incoming !== undefined && !incoming.complete && (incoming.destroyed || incoming.readableAborted);
}

/** The status recorded in the access log for such a request (nginx's "client closed request"); nobody receives it. */
export const CLIENT_CLOSED_REQUEST = 499;
