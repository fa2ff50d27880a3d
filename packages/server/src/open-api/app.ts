/**
 * The Open API (spec/openapi.yaml) as a Hono sub-app, built exactly as a user's server would build it: the
 * validator's `webinarHono` middleware verifies every request on an operation path (signature, nonce, body) and
 * answers the rejected ones; a verified request reaches its operation's handler (operations/) with
 * `c.get("webinar")`. Any other path is answered 404 REQUEST_INVALID.
 */
import type { MiddlewareHandler } from "hono";
import { Hono } from "hono";
import { webinarHono } from "@org/webinar-validator/hono";
import { ServiceError } from "../errors";
import type { AppEnv } from "../http/app-env";
import { type AppServices, requestServices } from "../services";
import { answerFailure, clientGoneAnswers } from "../http/failure";
import { observedPath } from "../http/request-observation";
import { jsonResponse } from "../http/respond";
import { runOperation } from "./operations";
import { verificationSpans } from "../tracing/verification-span";

/**
 * The operation and error code of an Open API request the validator's middleware answered itself (a refused
 * signature, nonce or body), for the request's observation: the operation from the path, the code from the
 * envelope of the refusal (only refusals are read, and only when no code was recorded).
 */
function recordRefusals(services: AppServices): MiddlewareHandler<AppEnv> {
  return async function recordRefusal(c, next) {
    const match = services.verifier.matchPath(c.env?.incoming?.url ?? observedPath(c));
    if (match.kind !== "unknown") c.set("operationId", match.operationId);
    await next();
    if (c.res.status < 400 || c.get("errorCode") !== undefined) return;
    const envelope = (await c.res
      .clone()
      .json()
      .catch(() => undefined)) as { error?: { code?: unknown } } | undefined;
    if (typeof envelope?.error?.code === "string") c.set("errorCode", envelope.error.code);
  };
}

export function createOpenApiApp(services: AppServices): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.use(recordRefusals(services));
  app.use(clientGoneAnswers(services.logger));
  const verify = webinarHono(services.verifier);
  if (services.tracing === undefined) app.use(verify);
  else app.use(verificationSpans(services.tracing.tracer, verify));
  app.all("*", async (c) => {
    // Unset on a path that is no operation: the middleware handed the request on untouched.
    const verified = c.get("webinar") as AppEnv["Variables"]["webinar"] | undefined;
    if (verified === undefined)
      throw new ServiceError("REQUEST_INVALID", "no Open API operation at this path", undefined, 404);
    c.set("merchantId", verified.merchantId);
    c.set("operationId", verified.operationId);
    // The answer carries the verifier's headers (X-Request-Id, CORS) from the start, so the middleware has none
    // left to add to it.
    try {
      const data = await runOperation(verified, requestServices(c, services));
      return jsonResponse(200, { requestId: verified.requestId, data }, verified.headers);
    } catch (error) {
      return answerFailure(c, services.logger, verified.requestId, error, verified.headers);
    }
  });
  return app;
}
