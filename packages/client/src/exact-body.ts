/**
 * The body a request will send, read without a second serialization (spec §5.2 step 1: serialize once, sign and
 * send the same bytes). openapi-fetch serializes the body once and builds a `Request` with it; the client passes
 * it this `Request` subclass, which remembers the string or bytes it was given, so signing needs neither a clone
 * nor a stream read. A request built any other way (a middleware that replaced it) is read from a clone.
 */

/** A `Request` that remembers a string or byte body as given. Used as openapi-fetch's `Request` class. */
export class BodyRecordingRequest extends Request {
  /**
   * openapi-fetch accepts a middleware's replacement request only if it is `instanceof` the configured `Request`
   * class; every `Request` must pass, or `client.raw.use()` middlewares would have to know about this class.
   */
  static override [Symbol.hasInstance](value: unknown): boolean {
    return value instanceof Request;
  }

  /** The body as given, when it was a string or bytes. */
  readonly #recorded: string | Uint8Array | undefined;
  /** Whether `signal` follows another signal (the caller's, or the input request's); if not, it never aborts. */
  readonly #followsSignal: boolean;

  constructor(input: RequestInfo | URL, init?: RequestInit) {
    super(input, init);
    const body = init?.body;
    this.#recorded = typeof body === "string" || body instanceof Uint8Array ? body : undefined;
    // Fetch spec, Request constructor: the signal follows `init.signal`, else the input request's signal, else
    // nothing, and then no one can abort it.
    this.#followsSignal = (init?.signal !== undefined && init.signal !== null) || (typeof input !== "string" && !(input instanceof URL));
  }

  /** The recorded body of a request built by this class, else `undefined`. */
  static recordedBody(request: Request): string | Uint8Array | undefined {
    return #recorded in request ? request.#recorded : undefined;
  }

  /** Whether `request.signal` may ever abort: always, except for a request of this class that follows no signal. */
  static signalMayAbort(request: Request): boolean {
    return #followsSignal in request ? request.#followsSignal : true;
  }
}

/**
 * The exact body of a request, as a string or bytes to hash and send as they are. A string stays a string: `fetch`
 * sends it as UTF-8 and the signer hashes it as UTF-8 (lone surrogates become U+FFFD in both), so the bytes hashed
 * are the bytes sent without encoding them here first. Bytes are copied, so a later change to the caller's array
 * is not sent.
 */
export async function exactBody(request: Request): Promise<string | Uint8Array<ArrayBuffer>> {
  return recordedBody(request) ?? new Uint8Array(await request.clone().arrayBuffer());
}

/** {@link exactBody} without waiting, for a request whose body was recorded; `undefined` otherwise. */
export function recordedBody(request: Request): string | Uint8Array<ArrayBuffer> | undefined {
  const recorded = BodyRecordingRequest.recordedBody(request);
  return typeof recorded === "string" ? recorded : recorded?.slice();
}
