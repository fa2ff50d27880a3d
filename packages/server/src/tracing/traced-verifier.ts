/**
 * Child spans of an Open API request: the verification (signature, timestamp, nonce, body) and, inside it, the
 * nonce claim. They say whether the request verified and whether the nonce was fresh; never the key's secret, the
 * signature, the nonce or the body. Made only under a recorded request span: a request the sampler left out
 * runs its verification as it is.
 */
import { type Span, SpanStatusCode, trace, type Tracer } from "@opentelemetry/api";
import type { NonceStore, RequestVerifier } from "@org/webinar-validator";

function inSpan<T>(tracer: Tracer, name: string, run: () => Promise<T>, describe: (span: Span, value: T) => void) {
  if (trace.getActiveSpan()?.isRecording() !== true) return run();
  return tracer.startActiveSpan(name, (span) =>
    run().then(
      (value) => {
        describe(span, value);
        span.end();
        return value;
      },
      (error: unknown) => {
        span.setStatus({ code: SpanStatusCode.ERROR, message: "failed" });
        span.end();
        throw error;
      },
    ),
  );
}

/** The verifier with each verification in a span `verify request`. */
export function tracedVerifier(verifier: RequestVerifier, tracer: Tracer): RequestVerifier {
  const verify = (...args: Parameters<RequestVerifier["verify"]>) =>
    inSpan(
      tracer,
      "verify request",
      () => (verifier.verify as (...given: typeof args) => ReturnType<RequestVerifier["verify"]>)(...args),
      (span, result) => {
        span.setAttribute("webinar.verified", result.ok);
        if (!result.ok) span.setAttribute("http.response.status_code", result.status);
      },
    );
  return { ...verifier, verify: verify as RequestVerifier["verify"] };
}

/** The nonce store with each claim in a span `claim nonce`. */
export function tracedNonceStore(store: NonceStore, tracer: Tracer): NonceStore {
  return {
    ...store,
    consume: (apiKey, nonce, expiresAtMs) =>
      inSpan(
        tracer,
        "claim nonce",
        () => store.consume(apiKey, nonce, expiresAtMs),
        (span, fresh) => span.setAttribute("webinar.nonce_fresh", fresh),
      ),
  };
}
