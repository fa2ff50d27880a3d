/**
 * `@org/webinar-validator/express`: Express middleware for the four Open API operations. It handles their paths
 * only and calls `next()` for every other request, so the app's own routes and body parsers work as before. Typed
 * through Express's own `Express.Request` declaration merging, so the package needs neither express nor its
 * types at run time.
 *
 * @example
 * import express from "express";
 * import { webinarExpress } from "@org/webinar-validator/express";
 *
 * const app = express();
 * app.use(webinarExpress(verifier));
 * app.use(express.json());
 * app.post("/api/v1/open/viewers/upsert", async (req, res) => {
 *   const { merchantId, body, requestId } = req.webinar!;
 *   res.json({ requestId, data: await upsertViewer(merchantId, body) });
 * });
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import {
  AdapterMountError,
  assertRequestVerifier,
  type RequestVerifier,
  type VerifiedRequest,
} from "../request-verifier";
import type { BodyReader } from "../signed-request-types";
import { bodyAlreadyRead, readNodeBody } from "./node-body";
import { nodeRequestTarget, verifyNodeRequest, type NodeRequest } from "./node-request";

declare global {
  // Express's own extension point: its Request type extends `Express.Request` (as passport's `req.user` does).

  namespace Express {
    interface Request {
      /** Set by `webinarExpress` on a verified Open API request: merchant, operation, validated body, request id. */
      webinar?: VerifiedRequest;
      /** The raw body bytes a body parser kept with {@link keepRawBody}. */
      rawBody?: Uint8Array;
    }
  }
}

/** A request as the middleware sees it. */
export interface ExpressLikeRequest extends IncomingMessage {
  originalUrl?: string | undefined;
  body?: unknown;
  rawBody?: Uint8Array;
  webinar?: VerifiedRequest;
}

/** An Express middleware: `app.use(webinarExpress(verifier))`. */
export type ExpressLikeMiddleware = (
  req: ExpressLikeRequest,
  res: ServerResponse,
  next: (error?: unknown) => void,
) => void;

const MOUNT_ADVICE =
  "webinarExpress needs the raw request body, and a body parser mounted before it consumed it without keeping it: " +
  "mount app.use(webinarExpress(verifier)) before express.json(), or keep the bytes with express.json({ verify: keepRawBody })";

/**
 * The `verify` option of `express.json()` (body-parser) that keeps the raw body bytes on `req.rawBody`, for an app
 * whose JSON parser must run before `webinarExpress`: the signature is checked over exactly these bytes.
 *
 * @example
 * app.use(express.json({ verify: keepRawBody }));
 * app.use(webinarExpress(verifier));
 */
export function keepRawBody(req: IncomingMessage, _res: ServerResponse, body: Uint8Array): void {
  (req as ExpressLikeRequest).rawBody = body;
}

/** The body as the pipeline reads it: kept raw bytes, else the unread stream, else a failure that says what to change. */
function expressBody(req: ExpressLikeRequest): Uint8Array | BodyReader {
  if (req.rawBody instanceof Uint8Array) return req.rawBody;
  if (bodyAlreadyRead(req)) return () => Promise.reject(new AdapterMountError(MOUNT_ADVICE));
  return (maxBytes) => readNodeBody(req, maxBytes);
}

/**
 * Express middleware verifying the four Open API operations, before or after `express.json()`.
 *
 * - An operation path (`/api/v1/open/viewers/upsert`, ...) is verified: signature, nonce, then the body against
 *   the operation's schema. A rejected request is answered here with the error envelope, its status and
 *   `X-Request-Id`; a verified one continues with `req.webinar` set, `req.body` set to the validated body unless
 *   a parser already set it, and `X-Request-Id` (and CORS headers) on the response.
 * - A non-canonical variant of an operation path (other letter case, trailing slash, query string, encoding, dot
 *   segments) is answered 401 `OPEN_API_UNAUTHORIZED`: the client signs the path it sends. A method other than
 *   POST there is answered 405 `REQUEST_INVALID` with `Allow: POST`, and a CORS preflight from an allowed origin 204.
 * - Every other request goes to `next()` untouched: its body is not read.
 *
 * The raw body: read from the request stream when no parser read it first; taken from `req.rawBody` when a parser
 * kept it ({@link keepRawBody}); otherwise answered 500 `INTERNAL_ERROR` with a message that says how to mount it.
 */
export function webinarExpress(verifier: RequestVerifier): ExpressLikeMiddleware {
  assertRequestVerifier(verifier, "webinarExpress");
  return function webinarExpressMiddleware(req, res, next) {
    const pathMatch = verifier.matchPath(nodeRequestTarget(req as NodeRequest));
    if (pathMatch.kind === "unknown") {
      next();
      return;
    }
    verifyNodeRequest(verifier, req, res, expressBody(req), pathMatch).then((verified) => {
      if (verified === undefined) return;
      req.webinar = verified;
      if (req.body === undefined) req.body = verified.body;
      next();
    }, next);
  };
}
