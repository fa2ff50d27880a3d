/**
 * The answer to a thrown error (http/respond.ts), except when the client went away mid-request: nobody is left to
 * answer, and that is no server failure, so it is logged at info, not as a 500. Records the error code for the
 * access log.
 */
import type { Context, MiddlewareHandler } from "hono";
import type { Logger } from "../logging/log";
import { observedPath } from "./request-observation";
import type { AppEnv } from "./app-env";
import { CLIENT_CLOSED_REQUEST, clientWentAway } from "./client-gone";
import { errorResponse } from "./respond";

function clientGone(c: Context<AppEnv>, logger: Logger, requestId: string): Response {
  logger.info({ requestId, path: observedPath(c) }, "the client closed the connection before its request was complete");
  c.set("errorCode", "CLIENT_CLOSED_REQUEST");
  return new Response(null, { status: CLIENT_CLOSED_REQUEST });
}

export function answerFailure(
  c: Context<AppEnv>,
  logger: Logger,
  requestId: string,
  error: unknown,
  headers?: Record<string, string>,
): Response {
  if (clientWentAway(c.env?.incoming)) return clientGone(c, logger, requestId);
  const { response, code } = errorResponse(requestId, error, logger, headers);
  c.set("errorCode", code);
  return response;
}

/**
 * For answers made without a thrown error (the validator's middleware answers a body that broke off itself): when
 * the client went away before its request was complete, the answer is replaced by the same info-level record.
 */
export function clientGoneAnswers(logger: Logger): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    await next();
    if (c.res.status !== CLIENT_CLOSED_REQUEST && clientWentAway(c.env?.incoming))
      c.res = clientGone(c, logger, c.get("requestId"));
  };
}
