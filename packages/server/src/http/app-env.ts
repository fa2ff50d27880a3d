/** The Hono environment shared by the app and its sub-apps. */
import type { HttpBindings } from "@hono/node-server";
import type { Span } from "@opentelemetry/api";
import type { WebinarEnv } from "@org/webinar-validator/hono";

/**
 * Node-server bindings (absent under `app.request` in tests), the per-request facts of the access log, the
 * validator's `webinar` (set by its middleware on the Open API's verified requests only), and for a request traced
 * by a recorded span, that span (tracing/request-spans.ts).
 */
export type AppEnv = {
  Bindings: Partial<HttpBindings>;
  Variables: {
    requestId: string;
    merchantId?: string;
    operationId?: string;
    errorCode?: string;
    requestSpan?: Span;
  } & WebinarEnv["Variables"];
};
