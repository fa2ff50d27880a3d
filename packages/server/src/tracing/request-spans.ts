/**
 * One span per request: opened when the request arrives, continuing the trace of an incoming W3C `traceparent`
 * (the propagators the OpenTelemetry SDK was configured with), active while the request is handled so the
 * verification and the database statements become its children, and closed from the request's one
 * observation (http/request-observation.ts), which names it by its operation and gives its status and error code.
 * It carries no path (a path can hold an API key), no header, no body, no query.
 *
 * A request the sampler leaves out (OTEL_TRACES_SAMPLER, e.g. `parentbased_traceidratio` with
 * OTEL_TRACES_SAMPLER_ARG=0.1) is handled outside any context: no span is kept for it and nothing under it makes
 * a span (the verification's and the statements' spans are made only under a recorded one), so an unsampled
 * request costs the sampler's decision and little else.
 */
import {
  context,
  propagation,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  trace,
  type Tracer,
} from "@opentelemetry/api";
import type { Context, MiddlewareHandler } from "hono";
import type { AppEnv } from "../http/app-env";
import type { RequestObserver } from "../http/request-observation";

export interface RequestSpans {
  /** Opens the span and handles the request inside it; mount inside the request observation. */
  readonly open: MiddlewareHandler<AppEnv>;
  /** Closes the span of an observed request. */
  readonly close: RequestObserver;
}

/**
 * The trace headers (`traceparent`, `tracestate`, `baggage`) from the Node request as received when there is one:
 * asking Hono for a header would build a whole Web `Request` for every request, which the server otherwise never
 * does.
 */
const headerGetter = {
  keys: () => [],
  get: (c: Context<AppEnv>, name: string) => {
    const headers = c.env?.incoming?.headers;
    return headers === undefined ? c.req.header(name) : headers[name];
  },
};

export function requestSpans(tracer: Tracer): RequestSpans {
  // The span of each request in flight, by its Hono context (the same object the observer is handed).
  const spans = new WeakMap<Context<AppEnv>, Span>();
  return {
    open: async function openRequestSpan(c, next) {
      const parent = propagation.extract(ROOT_CONTEXT, c, headerGetter);
      const span = tracer.startSpan(`${c.req.method} request`, { kind: SpanKind.SERVER }, parent);
      if (!span.isRecording()) return next();
      spans.set(c, span);
      await context.with(trace.setSpan(parent, span), next);
    },
    close(observation, c) {
      const span = spans.get(c);
      if (span === undefined) return;
      spans.delete(c);
      span.updateName(observation.operationId ?? `${observation.method} ${observation.surface}`);
      span.setAttributes({
        "http.request.method": observation.method,
        "http.response.status_code": observation.status,
        "webinar.surface": observation.surface,
        "webinar.operation": observation.operationId ?? "unknown",
        "webinar.request_id": observation.requestId,
        ...(observation.merchantId === undefined ? {} : { "webinar.merchant_id": observation.merchantId }),
        ...(observation.errorCode === undefined ? {} : { "error.type": observation.errorCode }),
      });
      if (observation.status >= 500)
        span.setStatus({ code: SpanStatusCode.ERROR, message: observation.errorCode ?? "" });
      span.end();
    },
  };
}
