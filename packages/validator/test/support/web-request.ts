/** A wire request as a Web `Request`, apart from the runners so the Bun script (hono-on-bun.ts) loads only this. */
import type { WireRequest } from "./fixture";

const bodyless = (method: string) => method === "GET" || method === "HEAD";

/** The wire request as a Web `Request` (repeated headers joined, as a Web runtime joins them). */
export function toWebRequest(wire: WireRequest, origin = "http://127.0.0.1"): Request {
  const headers = new Headers();
  for (const [name, value] of wire.headers) headers.append(name, value);
  return new Request(`${origin}${wire.path}`, {
    method: wire.method,
    headers,
    body: bodyless(wire.method) ? null : (wire.body as Uint8Array<ArrayBuffer>),
  });
}
