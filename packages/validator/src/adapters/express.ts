/**
 * Express adapter: a middleware that reads the raw body itself (no `express.json()` needed, and none may run
 * before it), verifies, validates, and puts the result on `req.webinar`. Typed structurally, so the package does
 * not depend on Express or its types.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { toRequestVerifier, type RequestVerifier, type RequestVerifierOptions, type VerifiedRequest } from "../request-verifier";
import { verifyNodeRequest } from "./node";

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Request {
      /** Set by `webinarExpress` for a verified request: merchant, operation, validated body, request id. */
      webinar?: VerifiedRequest;
    }
  }
}

/** The parts of an Express request the middleware uses. */
export interface ExpressLikeRequest extends IncomingMessage {
  originalUrl?: string;
  webinar?: VerifiedRequest;
}

/** An Express-style middleware. */
export type ExpressLikeMiddleware = (req: ExpressLikeRequest, res: ServerResponse, next: (error?: unknown) => void) => void;

/**
 * Express middleware verifying every request that reaches it: mount it before the routes and before any body
 * parser. A rejected request is answered here (envelope, status, `X-Request-Id`); a verified one continues with
 * `req.webinar` set and `X-Request-Id` (and CORS headers) already on the response.
 *
 * @example
 * const app = express();
 * app.use(webinarExpress(verifier));
 * app.post("/api/v1/open/viewers/upsert", async (req, res) => {
 *   const { merchantId, body, requestId } = req.webinar!;
 *   res.json({ requestId, data: await upsertViewer(merchantId, body) });
 * });
 */
export function webinarExpress(verifier: RequestVerifier | RequestVerifierOptions): ExpressLikeMiddleware {
  const pipeline = toRequestVerifier(verifier);
  return function webinarMiddleware(req, res, next) {
    verifyNodeRequest(req, res, pipeline).then((webinar) => {
      if (webinar === undefined) return;
      req.webinar = webinar;
      next();
    }, next);
  };
}
