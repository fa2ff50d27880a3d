/**
 * How every span the server makes around asynchronous work ends: when the work settles, after the value has said
 * what it should on the span, or with an error status when the work fails. The failure's message is the caller's
 * (a database error's code, a fixed word), never the error's own text, which could hold a value.
 */
import { type Span, SpanStatusCode } from "@opentelemetry/api";

/**
 * @example
 * return endWhenSettled(span, run(), () => "failed", (result) => span.setAttribute("webinar.verified", result.ok));
 */
export function endWhenSettled<T>(
  span: Span,
  work: Promise<T>,
  failure: (error: unknown) => string,
  describe?: (value: T) => void,
): Promise<T> {
  return work.then(
    (value) => {
      describe?.(value);
      span.end();
      return value;
    },
    (error: unknown) => {
      span.setStatus({ code: SpanStatusCode.ERROR, message: failure(error) });
      span.end();
      throw error;
    },
  );
}
