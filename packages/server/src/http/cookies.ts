/**
 * Reading a request's `Cookie` header, for the surfaces that keep a session in a cookie (watch page, console),
 * with Hono's own cookie parser (the one `hono/cookie`'s getCookie uses), from the header alone so that code
 * without the request's context can read it too.
 */
import { parse } from "hono/utils/cookie";

/** The value of cookie `name` in a `Cookie` header, or undefined. */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  return header === undefined ? undefined : parse(header, name)[name];
}
