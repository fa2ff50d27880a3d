/**
 * Reading a request header without building a Web `Headers` for the request. On Node, Hono's `c.req.header()`
 * turns every header of the request into a `Headers` object on its first call; for a watch-page heartbeat that was
 * a twentieth of the server's work, for one header it then reads. Here the header is read from the Node request as
 * received (`c.env.incoming`, what @hono/node-server passes), and elsewhere (`app.request()` in tests, other
 * runtimes) from Hono.
 */
import type { Context } from "hono";
import type { AppEnv } from "./app-env";

/**
 * The value of the header `lowerName` (lowercase), as `Headers.get` gives it: repeated values joined with ", "
 * (cookies with "; "), or undefined when the request has none.
 *
 * @example
 * const cookies = requestHeader(c, "cookie");
 */
export function requestHeader(c: Context<AppEnv>, lowerName: string): string | undefined {
  const raw = c.env?.incoming?.rawHeaders;
  if (raw === undefined) return c.req.header(lowerName);
  let value: string | undefined;
  for (let index = 0; index < raw.length; index += 2) {
    const name = raw[index]!;
    if (name.length !== lowerName.length || name.toLowerCase() !== lowerName) continue;
    const next = raw[index + 1]!;
    value = value === undefined ? next : `${value}${lowerName === "cookie" ? "; " : ", "}${next}`;
  }
  return value;
}
