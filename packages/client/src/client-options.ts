/**
 * Options of `createWebinarClient`, validated once when the client is created, so a misconfiguration (an unset
 * environment variable, a full URL with a query) fails at start-up rather than on the first request.
 */
import { createNonce, isValidNonce } from "@org/webinar-signing";
import { ClockSkew } from "./clock-skew";
import { createPooledRandom } from "./nonce-pool";
import { createSigner, type CryptoPreference } from "@org/webinar-signing";
import type { RequestLogger } from "./request-log";
import { resolveRetryPolicy, type RetryOptions, type RetryPolicy } from "./retry-policy";
import type { FetchLike, SigningTransport, Sleep } from "./signed-fetch";
import { abortableSleep } from "./sleep";

/** Options of {@link createWebinarClient}. Only `baseUrl`, `apiKey` and `secret` are required. */
export interface WebinarClientOptions {
  /**
   * The API origin from your deployer, optionally with a path prefix (`https://gw.example.com/webinar`): the
   * prefix is part of the signed path. Not the documentation site's address.
   */
  baseUrl: string;
  /** `X-API-Key`: it selects the merchant. */
  apiKey: string;
  /** The secret paired with the key, used as raw text. It is never sent and never logged. */
  secret: string;
  /** A `fetch` to use instead of the global one (a proxy agent, a test handler). Called as `fetch(url, init)`. */
  fetch?: FetchLike;
  /** Limit of one attempt, from sending to the end of the answer. Default 10000 ms. */
  timeoutMs?: number;
  /** Retry settings, or `false` for a single attempt per call. See {@link RetryOptions}. */
  retry?: RetryOptions | false;
  /** The local clock in epoch milliseconds (default `Date.now`); it dates each signature. */
  clock?: () => number;
  /** Receives one entry per HTTP attempt; never the secret, a signature, a login ticket or a login URL. */
  logger?: RequestLogger;
  /**
   * The client signs with your secret, which must never reach a browser. Creating a client where `window` or
   * `document` exists throws unless this is `true` (for an internal tool on a trusted machine, say).
   */
  dangerouslyAllowBrowser?: boolean;
  /**
   * Clock-skew correction from the server's `Date` header: offsets above `thresholdSeconds` (default 30) are
   * applied to timestamps, and a 401 caused by such an offset is retried once. `false` turns it off.
   */
  clockSkew?: { thresholdSeconds?: number } | false;
  /** Uniform random numbers in [0, 1) for backoff jitter (default `Math.random`). For tests. */
  random?: () => number;
  /** Waits between retries and polls (default: a timer). For tests. */
  sleep?: Sleep;
  /** Makes each `X-Nonce` (default `createNonce`: 16 CSPRNG bytes as 32 hex characters). For tests reproducing a vector. */
  nonceSource?: () => string;
  /** Hash implementation: `auto` (default; node:crypto when available), `node` or `web` (Web Crypto). */
  crypto?: CryptoPreference;
}

/** Defaults applied to every call, overridable per call. */
export interface CallDefaults {
  retry: RetryPolicy;
  timeoutMs: number;
}

/** What `createWebinarClient` builds from its options. */
export interface ResolvedClientOptions {
  baseUrl: string;
  transport: SigningTransport;
  defaults: CallDefaults;
}

/** Default limit of one attempt. */
export const DEFAULT_TIMEOUT_MS = 10_000;

function isBrowserLike(): boolean {
  const scope = globalThis as { window?: unknown; document?: unknown };
  return scope.window !== undefined || scope.document !== undefined;
}

function checkBaseUrl(baseUrl: unknown): string {
  let url: URL;
  try {
    url = new URL(String(baseUrl));
  } catch {
    throw new TypeError(`baseUrl must be an absolute http(s) URL such as https://api.example.com, got ${JSON.stringify(baseUrl)}`);
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") throw new TypeError(`baseUrl must use http or https, got ${url.protocol}`);
  if (url.search !== "" || url.hash !== "") throw new TypeError("baseUrl must have no query string or fragment: the signed path has none (spec §4)");
  if (url.username !== "" || url.password !== "") throw new TypeError("baseUrl must not carry credentials; the API key and secret are separate options");
  return url.href;
}

/** Checks a per-attempt timeout. */
export function checkTimeoutMs(timeoutMs: number): number {
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) throw new RangeError(`timeoutMs must be a positive number, got ${timeoutMs}`);
  return timeoutMs;
}

function defaultNonceSource(): () => string {
  const random = createPooledRandom();
  return () => createNonce(random);
}

/** A caller's nonce source is checked on every use; a bad nonce fails the call before anything is sent. */
function checkedNonceSource(source: () => string): () => string {
  return () => {
    const nonce = source();
    if (!isValidNonce(nonce)) throw new TypeError("nonceSource must return 16-128 characters of A-Z a-z 0-9 _ - (spec §5.1)");
    return nonce;
  };
}

/** Validates the options and builds the shared transport. */
export function resolveClientOptions(options: WebinarClientOptions): ResolvedClientOptions {
  if (options.dangerouslyAllowBrowser !== true && isBrowserLike()) {
    throw new Error(
      "createWebinarClient: this looks like a browser. The client signs with your API secret, which must stay on your " +
        "server; call the API from your backend. Pass dangerouslyAllowBrowser: true only where the secret cannot leak.",
    );
  }
  const baseUrl = checkBaseUrl(options.baseUrl);
  if (typeof options.apiKey !== "string" || options.apiKey.length === 0 || /[\r\n]/.test(options.apiKey)) {
    throw new TypeError("apiKey must be a non-empty string without line breaks (the X-API-Key from the merchant console)");
  }
  if (typeof options.secret !== "string" || options.secret.length === 0) {
    throw new TypeError("secret must be a non-empty string (the API secret from the merchant console, as raw text)");
  }
  const signer = createSigner(options.secret, options.crypto);
  const thresholdSeconds = options.clockSkew === false ? undefined : options.clockSkew?.thresholdSeconds;
  const fetchImpl: FetchLike = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  return {
    baseUrl,
    defaults: { retry: resolveRetryPolicy(options.retry), timeoutMs: checkTimeoutMs(options.timeoutMs ?? DEFAULT_TIMEOUT_MS) },
    transport: {
      apiKey: options.apiKey,
      signer,
      fetch: fetchImpl,
      clock: options.clock ?? Date.now,
      nonceSource: options.nonceSource === undefined ? defaultNonceSource() : checkedNonceSource(options.nonceSource),
      sleep: options.sleep ?? abortableSleep,
      random: options.random ?? Math.random,
      logger: options.logger,
      skew: options.clockSkew === false ? undefined : new ClockSkew(thresholdSeconds),
    },
  };
}
