/**
 * Options of `createWebinarClient`, validated once when the client is created, so a misconfiguration (an unset
 * environment variable, a full URL with a query) fails at start-up rather than on the first request. The signing
 * options are those of `createSigningMiddleware`, which checks them.
 */
import type { FetchLike } from "./attempt";
import type { RequestLogger } from "./request-log";
import { resolveRetryPolicy, type RetryOptions, type RetryPolicy } from "./retry-policy";
import type { CallRuntime } from "./send-call";
import type { SigningOptions } from "./signing-middleware";
import { abortableSleep, type Sleep } from "./sleep";

/** Options of {@link createWebinarClient}. Only `baseUrl`, `apiKey` and `secret` are required. */
export interface WebinarClientOptions extends SigningOptions {
  /**
   * The API origin from your deployer, optionally with a path prefix (`https://gw.example.com/webinar`): the
   * prefix is part of the signed path. Not the documentation site's address.
   */
  baseUrl: string;
  /** A `fetch` to use instead of the global one (a proxy agent, a test handler), called with the signed `Request`. */
  fetch?: FetchLike;
  /** Limit of one attempt, from sending to the end of the answer. Default 10000 ms. */
  timeoutMs?: number;
  /** Retry settings, or `false` for a single attempt per call. See {@link RetryOptions}. */
  retry?: RetryOptions | false;
  /** Receives one entry per HTTP attempt of a method; never the secret, a signature, a login ticket or a login URL. */
  logger?: RequestLogger;
  /** Uniform random numbers in [0, 1) for backoff jitter (default `Math.random`). For tests. */
  random?: () => number;
  /** Waits between retries and polls (default: a timer). For tests. */
  sleep?: Sleep;
}

/** Defaults applied to every call, overridable per call. */
export interface CallDefaults {
  retry: RetryPolicy;
  timeoutMs: number;
}

/** Default limit of one attempt. */
export const DEFAULT_TIMEOUT_MS = 10_000;

function checkBaseUrl(baseUrl: unknown): string {
  let url: URL;
  try {
    url = new URL(String(baseUrl));
  } catch {
    throw new TypeError(
      `baseUrl must be an absolute http(s) URL such as https://api.example.com, got ${JSON.stringify(baseUrl)}`,
    );
  }
  if (url.protocol !== "https:" && url.protocol !== "http:")
    throw new TypeError(`baseUrl must use http or https, got ${url.protocol}`);
  if (url.search !== "" || url.hash !== "")
    throw new TypeError("baseUrl must have no query string or fragment: the signed path has none");
  if (url.username !== "" || url.password !== "")
    throw new TypeError("baseUrl must not carry credentials; the API key and secret are separate options");
  return url.href;
}

/** Checks a per-attempt timeout. */
export function checkTimeoutMs(timeoutMs: number): number {
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0)
    throw new RangeError(`timeoutMs must be a positive number, got ${timeoutMs}`);
  return timeoutMs;
}

/** What `createWebinarClient` builds from its options, besides the signing middleware. */
export interface ResolvedClientOptions {
  baseUrl: string;
  defaults: CallDefaults;
  runtime: Omit<CallRuntime, "skew">;
}

/** Validates the options that are not signing options and fills in the defaults. */
export function resolveClientOptions(options: WebinarClientOptions): ResolvedClientOptions {
  return {
    baseUrl: checkBaseUrl(options.baseUrl),
    defaults: {
      retry: resolveRetryPolicy(options.retry),
      timeoutMs: checkTimeoutMs(options.timeoutMs ?? DEFAULT_TIMEOUT_MS),
    },
    runtime: {
      fetch: options.fetch ?? ((request) => globalThis.fetch(request)),
      clock: options.clock ?? Date.now,
      sleep: options.sleep ?? abortableSleep,
      random: options.random ?? Math.random,
      logger: options.logger,
    },
  };
}
