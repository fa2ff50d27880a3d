/**
 * A Web `Request` as the verification pipeline reads it: method, the request target, headers, and a body read
 * only once the headers passed and never beyond the size limit. Web APIs only, so the main entry runs on Node,
 * Bun, Deno, Workers and in browsers.
 */
import { joinChunks } from "./body-bytes";
import type { IncomingRequest } from "./signed-request-types";

const SCHEME_AND_HOST = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i;

/**
 * The path and query of a `Request`'s URL as the runtime parsed it. `request.url` keeps an empty query (`?`),
 * which `URL#search` would drop; dot segments are already resolved, which is why servers that expose the request
 * target as received should pass that instead.
 */
export function requestTarget(request: Request): string {
  return request.url.replace(SCHEME_AND_HOST, "");
}

/**
 * Reads a Web `Request` body up to a limit: the bytes, or `undefined` when the body is larger than `maxBytes` (a
 * declared Content-Length above it is refused without reading, and reading stops at the limit). For custom
 * adapters and for a server's other routes.
 *
 * @example
 * const body = await readWebBody(request, 64 * 1024);
 * if (body === undefined) return new Response("too large", { status: 413 });
 */
export async function readWebBody(request: Request, maxBytes: number): Promise<Uint8Array | undefined> {
  const declared = request.headers.get("content-length");
  if (declared !== null && Number(declared) > maxBytes) return undefined;
  if (request.body === null) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      return undefined;
    }
    chunks.push(value);
  }
  return joinChunks(chunks, size);
}

/** The pipeline's view of a Web `Request`; `rawPath` is the request target as received, when the server has it. */
export function incomingWebRequest(request: Request, rawPath: string = requestTarget(request)): IncomingRequest {
  return {
    method: request.method,
    rawPath,
    headers: request.headers,
    body: (maxBytes) => readWebBody(request, maxBytes),
  };
}
