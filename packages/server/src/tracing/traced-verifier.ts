/**
 * The child span of an Open API request that covers its verification (signature, timestamp, nonce claim, body):
 * `verify request`. It says whether the request verified and, when it did not, its status and error code (a nonce
 * used before is `OPEN_API_REPLAYED`); never the key's secret, the signature, the nonce or the body. The nonce claim is
 * not a span of its own: its outcome is the verification's, its statement (in a batch of claims) sits under the
 * verification of the request that opened the batch, and one span fewer per request is a sixth less to make and
 * send. Made only under a recorded request span: a request the sampler left out runs its verification as it is.
 */
import { trace, type Tracer } from "@opentelemetry/api";
import type { RequestVerifier } from "@org/webinar-validator";
import { endWhenSettled } from "./settled-span";

type Verify = (...args: Parameters<RequestVerifier["verify"]>) => ReturnType<RequestVerifier["verify"]>;

/** The verifier with each verification under a recorded request in a span `verify request`. */
export function tracedVerifier(verifier: RequestVerifier, tracer: Tracer): RequestVerifier {
  const run = verifier.verify as Verify;
  const verify: Verify = (...args) => {
    if (trace.getActiveSpan()?.isRecording() !== true) return run(...args);
    return tracer.startActiveSpan("verify request", (span) =>
      endWhenSettled(
        span,
        run(...args),
        () => "failed",
        (result) => {
          span.setAttribute("webinar.verified", result.ok);
          if (result.ok) return;
          span.setAttribute("http.response.status_code", result.status);
          if (result.body !== null) span.setAttribute("error.type", result.body.error.code);
        },
      ),
    );
  };
  return { ...verifier, verify: verify as RequestVerifier["verify"] };
}
