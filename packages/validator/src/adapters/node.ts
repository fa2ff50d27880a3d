/**
 * `@org/webinar-validator/node`: a request handler for node:http and Connect-style servers (Connect, Polka, a
 * bare `http.createServer`). It reads the request target as received (`req.url`, or `originalUrl` under a mount
 * point), every header value (`headersDistinct`) and the raw body itself.
 *
 * @example
 * import { createServer } from "node:http";
 * import { webinarNode } from "@org/webinar-validator/node";
 *
 * const webinar = webinarNode(verifier);
 * createServer(async (req, res) => {
 *   const verified = await webinar(req, res);
 *   if (verified === undefined) return; // answered already
 *   res.setHeader("Content-Type", "application/json");
 *   res.end(JSON.stringify({ requestId: verified.requestId, data: await handle(verified) }));
 * }).listen(8080);
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { assertRequestVerifier, type RequestVerifier, type VerifiedRequest } from "../request-verifier";
import { readNodeBody } from "./node-body";
import { nodeRequestTarget, verifyNodeRequest, type NodeRequest } from "./node-request";

export { readNodeBody } from "./node-body";
export type { NodeBodyStream } from "./node-body";

/** A Node request after {@link webinarNode} verified it. */
export interface WebinarIncomingMessage extends IncomingMessage {
  /** The target before a Connect or Express mount point was cut from `url`. */
  originalUrl?: string | undefined;
  /** Set for a verified request: merchant, operation, validated body, request id. */
  webinar?: VerifiedRequest;
}

/**
 * The handler of {@link webinarNode}. Resolves the verified request, or `undefined` when it answered the request
 * itself (a rejection, a preflight) or handed it on with `next()`.
 */
export type WebinarNodeHandler = (
  req: IncomingMessage,
  res: ServerResponse,
  next?: (error?: unknown) => void,
) => Promise<VerifiedRequest | undefined>;

/**
 * A `(req, res, next?)` handler verifying the four Open API operations.
 *
 * - On an operation path (and its non-canonical variants, answered 401 `OPEN_API_UNAUTHORIZED`) it verifies the
 *   request. A rejected request is answered here: the error envelope, its status, `X-Request-Id`. A verified one
 *   gets `req.webinar`, the success headers on `res`, and `next()` (Connect) or the resolved value (node:http).
 * - Any other path: with `next`, the request is handed on untouched (body unread); without `next` (the handler is
 *   the whole server) it is answered 404 `REQUEST_INVALID`.
 *
 * @example
 * // Connect
 * const app = connect();
 * app.use(webinarNode(verifier));
 * app.use("/api/v1/open/viewers/upsert", (req: WebinarIncomingMessage, res) => {
 *   res.setHeader("Content-Type", "application/json");
 *   res.end(JSON.stringify({ requestId: req.webinar!.requestId, data: upsertViewer(req.webinar!) }));
 * });
 */
export function webinarNode(verifier: RequestVerifier): WebinarNodeHandler {
  assertRequestVerifier(verifier, "webinarNode");
  return async function webinarNodeHandler(req: NodeRequest & WebinarIncomingMessage, res, next) {
    const pathMatch = verifier.matchPath(nodeRequestTarget(req));
    if (next !== undefined && pathMatch.kind === "unknown") {
      next();
      return undefined;
    }
    const body = (maxBytes: number) => readNodeBody(req, maxBytes);
    const verified = await verifyNodeRequest(verifier, req, res, body, pathMatch);
    if (verified === undefined) return undefined;
    req.webinar = verified;
    next?.();
    return verified;
  };
}
