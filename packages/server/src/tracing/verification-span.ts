/**
 * The child span of an Open API request that covers its verification (signature, timestamp, nonce claim, body):
 * `verify request`. It says whether the request verified and, when it did not, its status and error code (a nonce
 * used before is `OPEN_API_REPLAYED`); never the key's secret, the signature, the nonce or the body. It wraps the
 * validator's middleware, which hands a verified request on and answers a refused one itself: the span ends where
 * the one hands on or the other answers. Made only under a recorded request span (request-spans.ts), and only on
 * an operation's path; any other request runs the middleware as it is.
 *
 * The nonce claim is not a span of its own: claims of the requests that arrive together are written by one
 * statement, which belongs to none of them.
 */
import { ROOT_CONTEXT, SpanStatusCode, trace, type Tracer } from "@opentelemetry/api";
import type { WebinarEnv } from "@org/webinar-validator/hono";
import type { Context, MiddlewareHandler } from "hono";
import type { AppEnv } from "../http/app-env";

/** `verify`, the validator's middleware, with each verification of a traced request in a span. */
export function verificationSpans(tracer: Tracer, validator: MiddlewareHandler<WebinarEnv>): MiddlewareHandler<AppEnv> {
  // The server's variables include the validator's; Hono's types cannot see one context as the other.
  const verify = (c: Context<AppEnv>, next: () => Promise<void>) =>
    validator(c as unknown as Context<WebinarEnv>, next);
  return async function traceVerification(c, next) {
    const parent = c.get("requestSpan");
    // The operation is known once the path is matched (open-api/app.ts): no operation, nothing to verify.
    if (parent === undefined || c.get("operationId") === undefined) return verify(c, next);
    const span = tracer.startSpan("verify request", undefined, trace.setSpan(ROOT_CONTEXT, parent));
    let ended = false;
    const end = (failed: boolean) => {
      if (ended) return;
      ended = true;
      const rejection = c.get("webinarRejection");
      if (failed) span.setStatus({ code: SpanStatusCode.ERROR, message: "failed" });
      else span.setAttribute("webinar.verified", rejection === undefined);
      if (rejection !== undefined) {
        span.setAttribute("http.response.status_code", rejection.status);
        if (rejection.body !== null) span.setAttribute("error.type", rejection.body.error.code);
      }
      span.end();
    };
    try {
      const answer = await verify(c, () => {
        end(false);
        return next();
      });
      end(false);
      return answer;
    } catch (error) {
      end(true);
      throw error;
    }
  };
}
