/**
 * One span per request: opened when the request arrives, continuing the trace of an incoming W3C `traceparent`
 * (the propagators the OpenTelemetry SDK was configured with), and closed from the request's one observation
 * (http/request-observation.ts), which names it by its operation and gives its status and error code. It carries
 * no path (a path can hold an API key), no header, no body, no query.
 *
 * The span is passed explicitly, never through an asynchronous context: a recorded span is the request's
 * `requestSpan`, the parent its verification (verification-span.ts) and its statements (traced-dialect.ts) are
 * given.
 *
 * A request the sampler leaves out (OTEL_TRACES_SAMPLER, e.g. `parentbased_traceidratio` with
 * OTEL_TRACES_SAMPLER_ARG=0.1) is handled exactly as without tracing: no span is kept for it and nothing under it
 * makes one, so an unsampled request costs the sampler's decision and nothing else.
 */
import { propagation, ROOT_CONTEXT, SpanKind, SpanStatusCode, type Tracer } from "@opentelemetry/api";
import type { Context, MiddlewareHandler } from "hono";
import type { AppEnv } from "../http/app-env";
import { requestHeader } from "../http/request-header";
import type { RequestObserver } from "../http/request-observation";

export interface RequestSpans {
  /** Opens the span and hands the request on with it; mount inside the request observation. */
  readonly open: MiddlewareHandler<AppEnv>;
  /** Closes the span of an observed request. */
  readonly close: RequestObserver;
}

/** The trace headers (`traceparent`, `tracestate`, `baggage`), read without building a `Headers` for the request. */
const headerGetter = {
  keys: () => [],
  get: (c: Context<AppEnv>, name: string) => requestHeader(c, name),
};

export function requestSpans(tracer: Tracer): RequestSpans {
  return {
    open: async function openRequestSpan(c, next) {
      const parent = propagation.extract(ROOT_CONTEXT, c, headerGetter);
      const span = tracer.startSpan(`${c.req.method} request`, { kind: SpanKind.SERVER }, parent);
      if (!span.isRecording()) return next();
      c.set("requestSpan", span);
      await next();
    },
    close(observation, c) {
      const span = c.get("requestSpan");
      if (span === undefined) return;
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
