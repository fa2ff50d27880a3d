/**
 * Reads request headers in the forms frameworks give them, without hiding repetition: Signing requests lets each
 * signature header appear once only, and a server that reads "the first" or "the last" of two values verifies
 * something other than what the client meant.
 */

/**
 * Request headers with repeated headers still visible, in any of three forms:
 * - a Web `Headers` (Fetch, Hono, Workers, Next.js): repeated values arrive joined with `", "`;
 * - raw `[name, value]` pairs in any letter case (e.g. from Node's `rawHeaders`);
 * - a record keyed by lowercased name, each value a string or a list (Node's `req.headersDistinct`, or
 *   `req.headers`, where Node joins repeated custom headers with `", "`).
 */
export type RequestHeaders =
  | Headers
  | ReadonlyArray<readonly [string, string]>
  | Readonly<Record<string, string | readonly string[] | undefined>>;

const NONE: readonly string[] = Object.freeze([]);

/** Every value of one header, in order; `lowerName` is the lowercased header name. */
export function headerValues(headers: RequestHeaders, lowerName: string): readonly string[] {
  if (Array.isArray(headers)) {
    const values: string[] = [];
    for (const [name, value] of headers as ReadonlyArray<readonly [string, string]>) {
      if (name.length === lowerName.length && name.toLowerCase() === lowerName) values.push(value);
    }
    return values;
  }
  if (typeof (headers as Headers).get === "function") {
    const value = (headers as Headers).get(lowerName);
    return value === null ? NONE : [value];
  }
  const value = (headers as Readonly<Record<string, string | readonly string[] | undefined>>)[lowerName];
  if (value === undefined) return NONE;
  return typeof value === "string" ? [value] : value;
}

/** Why a header that must appear exactly once cannot be used. */
export interface HeaderProblem {
  readonly problem: "missing" | "repeated";
}

const MISSING: HeaderProblem = Object.freeze({ problem: "missing" });
const REPEATED: HeaderProblem = Object.freeze({ problem: "repeated" });

/**
 * The one value of a header that may appear once only, or why there is none. A comma counts as repetition (a
 * Web `Headers` or Node's `req.headers` joins repeated values with `", "`); none of the values this is used for
 * may contain one. An empty value counts as missing.
 *
 * @example
 * singleHeader([["X-Nonce", "abc"]], "x-nonce");                  // "abc"
 * singleHeader([["X-Nonce", "a"], ["x-nonce", "b"]], "x-nonce"); // { problem: "repeated" }
 */
export function singleHeader(headers: RequestHeaders, lowerName: string): string | HeaderProblem {
  const values = headerValues(headers, lowerName);
  if (values.length === 0) return MISSING;
  if (values.length > 1) return REPEATED;
  const value = values[0]!;
  if (value.includes(",")) return REPEATED;
  return value.trim() === "" ? MISSING : value;
}
