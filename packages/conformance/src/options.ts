/**
 * What `runConformance` needs: where the server is, one API key of an active merchant with its secret, and one
 * published webinar's `ticketCode`. Everything else is optional and widens what can be checked.
 */
import { limits } from "@org/webinar-types";
import type { CheckResult, SkippedCheck } from "./report";
import type { Credentials } from "./credentials";
import type { ConformanceSetup } from "./setup-hooks";

/** An API key and the secret paired with it. */
export interface ConformanceOptions {
  /** The API's base URL, e.g. `https://api.example.com` or `https://gw.example.com/webinar` (a path prefix is signed too). */
  baseUrl: string;
  /** A key of an active merchant. */
  apiKey: string;
  /** The secret paired with `apiKey`; it is used to sign and never sent. */
  apiSecret: string;
  /** The `ticketCode` of a published webinar of that merchant. */
  ticketCode: string;
  /** A key of a second active merchant, for the isolation checks (`isolation.*`); without it they are skipped. */
  secondMerchant?: Credentials;
  /**
   * The watch page's ticket exchange (e.g. `https://watch.example.com/w/api/session`): `POST {ticketCode, loginTicket}`
   * answers 2xx for a valid ticket and 4xx otherwise. Without it the `tickets.exchange.*` checks are skipped:
   * one-time use is visible only where tickets are exchanged, which the spec leaves to the watch page.
   */
  sessionUrl?: string;
  /** The server's accepted clock skew in seconds (deployer-configurable); default the spec's `x-limits`, 300. */
  clockSkewSeconds?: number;
  /** The server's request body limit in bytes (deployer-configurable); default the spec's `x-limits`, 1048576. */
  maxBodyBytes?: number;
  /** Run only the checks whose id starts with one of these prefixes (`signing`, `body.upsertViewer`). */
  only?: readonly string[];
  /** Time allowed for one answer, in ms; default 15000. */
  timeoutMs?: number;
  /**
   * Hooks that set up state a client cannot (revoked keys, suspended merchants, webinar states, lives, watch time,
   * moderation): the `state.*`, `figures.*` and some `tickets.*` checks need them and are skipped without them.
   */
  setup?: ConformanceSetup;
  /**
   * The seed of the `fuzz.*` and `model.*` checks, printed in their details; default {@link DEFAULT_SEED}, so two
   * runs against the same server send the same bodies and reach the same verdict.
   */
  seed?: number;
  /** Bodies the `fuzz.*` checks send per operation and kind (valid, invalid); default 100, twice that for names. */
  fuzzRuns?: number;
  /** Command sequences the `model.*` checks run; default {@link DEFAULT_MODEL_RUNS}, 0 skips them. */
  modelRuns?: number;
  /** Time limit of the `model.*` checks in seconds: they stop starting sequences once it has passed; default 40. */
  modelSeconds?: number;
  /**
   * The path a failing `model.*` sequence printed (`7:2:2:4@BLACAR:q`): with the same `seed`, the run replays that
   * sequence alone, shrunk as printed, instead of drawing new ones.
   */
  modelPath?: string;
  /** Told about each check as soon as it has run, e.g. to print it. */
  onCheck?: (result: CheckResult | SkippedCheck) => void;
  /**
   * Stops the run: no check starts once it is aborted, and the report holds the checks that ran. With `onCheck`,
   * a caller that only needs to know whether one check fails (say, the first failure) can stop there.
   */
  signal?: AbortSignal;
}

/** The options with every default applied. */
export interface ResolvedOptions {
  origin: string;
  /** Path prefix of the base URL without a trailing slash: `""` or e.g. `/webinar`. */
  basePath: string;
  main: Credentials;
  ticketCode: string;
  secondMerchant: Credentials | undefined;
  sessionUrl: string | undefined;
  clockSkewSeconds: number;
  maxBodyBytes: number;
  only: readonly string[];
  timeoutMs: number;
  setup: ConformanceSetup;
  seed: number;
  fuzzRuns: number;
  modelRuns: number;
  modelSeconds: number;
  modelPath: string | undefined;
}

/** The seed a run uses unless told another: fixed, so a verdict does not depend on the run. */
export const DEFAULT_SEED = 20261128;

/** Command sequences of the `model.*` checks unless told otherwise: enough that a bug two rules cause together
 * (the kit's own mutant harness has one) is found with every seed its tests try, in seconds. */
export const DEFAULT_MODEL_RUNS = 100;

function integerOption(value: number | undefined, fallback: number, name: string, least: 0 | 1): number {
  const resolved = value ?? fallback;
  if (!Number.isSafeInteger(resolved) || resolved < least)
    throw new TypeError(`${name} must be ${least === 1 ? "a positive" : "a non-negative"} integer`);
  return resolved;
}

/** fast-check's path of a counterexample (numbers joined by colons), then `@` and the path of its commands. */
function replayPath(value: string | undefined): string | undefined {
  if (value !== undefined && !/^\d+(?::\d+)*(?:@[A-Za-z0-9+/:=]*)?$/.test(value))
    throw new TypeError(
      `modelPath must be the path a failing sequence printed (like 7:2:2:4@BLACAR:q), got ${JSON.stringify(value)}`,
    );
  return value;
}

const positiveInteger = (value: number | undefined, fallback: number, name: string) =>
  integerOption(value, fallback, name, 1);

function httpUrl(value: string, name: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new TypeError(`${name} must be an http(s) URL, got ${JSON.stringify(value)}`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new TypeError(`${name} must be an http(s) URL, got ${JSON.stringify(value)}`);
  if (url.search !== "" || url.hash !== "") throw new TypeError(`${name} must have no query or fragment`);
  return url;
}

function required(value: string | undefined, name: string): string {
  if (typeof value !== "string" || value === "") throw new TypeError(`${name} is required`);
  return value;
}

/** Checks the options once and applies the defaults; throws a `TypeError` naming the first bad option. */
export function resolveOptions(options: ConformanceOptions): ResolvedOptions {
  const base = httpUrl(required(options.baseUrl, "baseUrl"), "baseUrl");
  if (options.sessionUrl !== undefined) httpUrl(options.sessionUrl, "sessionUrl");
  const second = options.secondMerchant;
  if (second !== undefined) {
    required(second.apiKey, "secondMerchant.apiKey");
    required(second.secret, "secondMerchant.secret");
  }
  return {
    origin: base.origin,
    basePath: base.pathname.replace(/\/+$/, ""),
    main: { apiKey: required(options.apiKey, "apiKey"), secret: required(options.apiSecret, "apiSecret") },
    ticketCode: required(options.ticketCode, "ticketCode"),
    secondMerchant: second,
    sessionUrl: options.sessionUrl,
    clockSkewSeconds: positiveInteger(options.clockSkewSeconds, limits.clockSkewSeconds, "clockSkewSeconds"),
    maxBodyBytes: positiveInteger(options.maxBodyBytes, limits.maxBodyBytes, "maxBodyBytes"),
    only: options.only ?? [],
    timeoutMs: positiveInteger(options.timeoutMs, 15_000, "timeoutMs"),
    setup: options.setup ?? {},
    // fast-check takes a 32-bit seed.
    seed: integerOption(options.seed, DEFAULT_SEED, "seed", 0),
    fuzzRuns: integerOption(options.fuzzRuns, 100, "fuzzRuns", 0),
    modelRuns: integerOption(options.modelRuns, DEFAULT_MODEL_RUNS, "modelRuns", 0),
    modelSeconds: positiveInteger(options.modelSeconds, 40, "modelSeconds"),
    modelPath: replayPath(options.modelPath),
  };
}
