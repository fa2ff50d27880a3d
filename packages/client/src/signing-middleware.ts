/**
 * The signing middleware for openapi-fetch: it signs each request as the spec's "Signing requests" guide says,
 * over the exact bytes that will be sent and the URL's real path, with a fresh nonce and timestamp every time it
 * runs. openapi-fetch runs `onRequest` once per call, so a retry (another call) is signed anew. It learns the
 * server's clock from each answer's `Date` and dates later signatures with it once the offset passes a threshold.
 */
import { createRequestSigner, unixTimestamp, type CryptoPreference } from "@org/webinar-signing";
import type { Middleware } from "openapi-fetch";
import { ClockSkew } from "./clock-skew";
import { noFollowRedirect } from "./no-follow-redirect";

/** Options of {@link createSigningMiddleware}; only `apiKey` and `secret` are required. */
export interface SigningOptions {
  /** `X-API-Key`: it selects the merchant. */
  apiKey: string;
  /** The secret paired with the key, used as raw text. It is never sent and never logged. */
  secret: string;
  /** The local clock in epoch milliseconds (default `Date.now`); it dates each signature. */
  clock?: () => number;
  /**
   * Makes each `X-Nonce` (default `createNonce`: 16 CSPRNG bytes as 32 hex characters). For tests reproducing a
   * vector; a nonce must never repeat.
   */
  nonceSource?: () => string;
  /** Hash implementation: `auto` (default; node:crypto when the runtime has it), `node` or `web` (Web Crypto). */
  crypto?: CryptoPreference;
  /**
   * Clock-skew correction from the server's `Date` header: once the offset exceeds `thresholdSeconds` (default
   * 30), timestamps are dated with the server's time. `false` turns it off.
   */
  clockSkew?: { thresholdSeconds?: number } | false;
  /**
   * Signing needs your API secret, which must never reach a browser. Creating a signer where `window` or
   * `document` exists throws unless this is `true` (for an internal tool on a trusted machine, say).
   */
  dangerouslyAllowBrowser?: boolean;
}

/** A signing middleware and the clock offset it learns, for the typed client's one re-try of a skewed 401. */
export interface Signing {
  middleware: Middleware;
  /** `undefined` when clock-skew correction is off. */
  skew: ClockSkew | undefined;
}

function isBrowserLike(): boolean {
  const scope = globalThis as { window?: unknown; document?: unknown };
  return scope.window !== undefined || scope.document !== undefined;
}

/** The path to sign: the URL's real path, base-URL prefix included. A query or fragment is refused: no operation has one. */
function pathToSign(request: Request): string {
  const url = new URL(request.url);
  if (url.search !== "" || url.hash !== "") {
    throw new TypeError(
      `the request URL must have no query string or fragment: the signed path is the operation's exact path (got ${url.search}${url.hash})`,
    );
  }
  return url.pathname;
}

/** Validates the options once and builds the middleware; see {@link createSigningMiddleware}. */
export function createSigning(options: SigningOptions): Signing {
  if (options.dangerouslyAllowBrowser !== true && isBrowserLike()) {
    throw new Error(
      "@org/webinar-client: this looks like a browser. Signing needs your API secret, which must stay on your " +
        "server; call the API from your backend. Pass dangerouslyAllowBrowser: true only where the secret cannot leak.",
    );
  }
  const signer = createRequestSigner(options);
  const clock = options.clock ?? Date.now;
  const skew = options.clockSkew === false ? undefined : new ClockSkew(options.clockSkew?.thresholdSeconds);

  const middleware: Middleware = {
    async onRequest({ request }) {
      if (request.method !== "POST")
        throw new TypeError(`every operation of the Webinar Open API is a POST; refusing to sign a ${request.method}`);
      // The bytes that will be sent: read once here, signed, and handed to the request that goes out.
      const body = new Uint8Array(await request.arrayBuffer());
      const signed = await signer.sign({
        path: pathToSign(request),
        body,
        timestamp: unixTimestamp(() => clock() + (skew?.correctionMs() ?? 0)),
      });
      // set(), not append(): a signature header the caller set is replaced, never sent twice.
      const headers = new Headers(request.headers);
      for (const [name, value] of Object.entries(signed.headers)) {
        if (name !== "Content-Type" || !headers.has(name)) headers.set(name, value);
      }
      // A redirected request would no longer match its signature: refuse redirects whatever the client's setting.
      return new Request(request, { headers, body, redirect: noFollowRedirect() });
    },
    onResponse({ response }) {
      skew?.learn(response.headers.get("date"), clock());
    },
  };
  return { middleware, skew };
}

/**
 * An openapi-fetch middleware that signs every request with your API key and secret: the exact bytes sent (read
 * from the request it receives), the URL's real path (after any base-URL prefix), a fresh nonce (16 CSPRNG bytes)
 * and timestamp per request. It refuses a URL with a query string or fragment, and sets `redirect: "error"`
 * (`"manual"` on Cloudflare Workers, which refuse `"error"`: a redirect then comes back unfollowed).
 *
 * Add it **last**: it signs what the middlewares before it produced, and a middleware after it that changed the
 * body or path would break the signature. Retrying a call means calling again: each call is signed anew, as the
 * spec requires (a nonce is replay protection, not an idempotency key).
 *
 * @example
 * import createClient from "openapi-fetch";
 * import type { paths } from "@org/webinar-types";
 * import { createSigningMiddleware } from "@org/webinar-client";
 *
 * const api = createClient<paths>({ baseUrl: process.env.WEBINAR_BASE_URL! });
 * api.use(createSigningMiddleware({ apiKey: process.env.WEBINAR_API_KEY!, secret: process.env.WEBINAR_API_SECRET! }));
 * const { data, error } = await api.POST("/api/v1/open/viewers/upsert", { body: { externalUserId: "crm-10086" } });
 */
export function createSigningMiddleware(options: SigningOptions): Middleware {
  return createSigning(options).middleware;
}
