/**
 * What counts as a JSON request body's media type: `application/json`, optionally with `charset=utf-8` and
 * nothing else, compared without regard to letter case or the spaces around `;` (the spec's "Signing requests"
 * guide). A body declared in another charset is refused rather than decoded as UTF-8 and misread.
 */

const CHARSET_PARAMETER = /^charset\s*=\s*(?:"utf-8"|utf-8)$/i;

/**
 * Whether a `Content-Type` value declares a JSON body the way the spec allows.
 *
 * @example
 * isJsonContentType("application/json; charset=UTF-8"); // true
 * isJsonContentType("application/json; charset=latin1"); // false
 * isJsonContentType("text/plain"); // false
 */
export function isJsonContentType(value: string): boolean {
  if (value === "application/json" || value === "application/json; charset=utf-8") return true;
  const [mediaType = "", ...parameters] = value.split(";");
  if (mediaType.trim().toLowerCase() !== "application/json") return false;
  return parameters.every((parameter) => CHARSET_PARAMETER.test(parameter.trim()));
}
