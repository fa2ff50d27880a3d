/**
 * The bytes a request will send, read without a second serialization (spec §5.2 step 1: serialize once, sign and
 * send the same bytes). openapi-fetch serializes the body once and builds a `Request` with it; the client passes
 * it this `Request` subclass, which remembers the string or bytes it was given, so signing needs neither a clone
 * nor a stream read. A request built any other way (a middleware that replaced it) is read from a clone.
 */
const recordedBodies = new WeakMap<Request, string | Uint8Array>();
const encoder = new TextEncoder();

/** A `Request` that remembers a string or byte body as given. Used as openapi-fetch's `Request` class. */
export class BodyRecordingRequest extends Request {
  /**
   * openapi-fetch accepts a middleware's replacement request only if it is `instanceof` the configured `Request`
   * class; every `Request` must pass, or `client.raw.use()` middlewares would have to know about this class.
   */
  static override [Symbol.hasInstance](value: unknown): boolean {
    return value instanceof Request;
  }

  constructor(input: RequestInfo | URL, init?: RequestInit) {
    super(input, init);
    const body = init?.body;
    if (typeof body === "string" || body instanceof Uint8Array) recordedBodies.set(this, body);
  }
}

/**
 * The exact body bytes of a request. A string is encoded as UTF-8, as `Request` itself encodes it (lone
 * surrogates become U+FFFD in both), and bytes are copied, so what is hashed is what is sent.
 */
export async function exactBodyBytes(request: Request): Promise<Uint8Array<ArrayBuffer>> {
  const recorded = recordedBodies.get(request);
  if (typeof recorded === "string") return encoder.encode(recorded);
  if (recorded !== undefined) return recorded.slice();
  return new Uint8Array(await request.clone().arrayBuffer());
}
