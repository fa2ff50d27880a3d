/**
 * Web-standard adapter (`Request` in, `Response` out): Hono, Cloudflare Workers, Next.js route handlers, Deno,
 * Bun. The runtime has already parsed the URL, so dot segments are resolved before the adapter sees them; pass
 * `rawPath` when the server exposes the request target as received (with @hono/node-server:
 * `c.env.incoming.url`).
 */
import { adapterFailure, toRequestVerifier, type RequestVerifier, type RequestVerifierOptions, type VerifiedRequest } from "../request-verifier";
import type { RequestRejection } from "../verify-signed-request";

/** Options of {@link verifyWebRequest}. */
export interface WebRequestInit {
  /** The request target exactly as received, when the server exposes it; default: path and query of `request.url`. */
  rawPath?: string | undefined;
}

const SCHEME_AND_HOST = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i;

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
  if (chunks.length === 1) return chunks[0];
  const body = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    body.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return body;
}

/**
 * A rejection (or preflight answer) as a `Response`, for callers of `verifySignedRequest` or
 * `createRequestVerifier` in a Web runtime.
 *
 * @example
 * const result = await verifier.verify({ method: request.method, rawPath, headers: request.headers, body });
 * if (!result.ok) return rejectionResponse(result);
 */
export function rejectionResponse(rejection: RequestRejection): Response {
  return new Response(rejection.body === null ? null : JSON.stringify(rejection.body), { status: rejection.status, headers: rejection.headers });
}

/**
 * Verifies a Web `Request`: the verified request, or the `Response` to return (error envelope with status and
 * `X-Request-Id`, or a CORS preflight answer). Add `verified.headers` to the handler's response.
 *
 * @example
 * // Next.js route handler (app/api/v1/open/[...operation]/route.ts) or a Worker's fetch
 * export async function POST(request: Request) {
 *   const verified = await verifyWebRequest(request, verifier);
 *   if (verified instanceof Response) return verified;
 *   return Response.json({ requestId: verified.requestId, data: await handle(verified) }, { headers: verified.headers });
 * }
 *
 * // Hono
 * app.use("*", async (c, next) => {
 *   const verified = await verifyWebRequest(c.req.raw, verifier, { rawPath: c.env?.incoming?.url });
 *   if (verified instanceof Response) return verified;
 *   c.set("webinar", verified);
 *   await next();
 *   for (const [name, value] of Object.entries(verified.headers)) c.res.headers.set(name, value);
 * });
 */
export async function verifyWebRequest(
  request: Request,
  verifier: RequestVerifier | RequestVerifierOptions,
  init: WebRequestInit = {},
): Promise<VerifiedRequest | Response> {
  const pipeline = toRequestVerifier(verifier);
  let result: VerifiedRequest | RequestRejection;
  try {
    result = await pipeline.verify({
      method: request.method,
      // request.url keeps an empty query ("?"), which URL#search would drop.
      rawPath: init.rawPath ?? request.url.replace(SCHEME_AND_HOST, ""),
      headers: request.headers,
      body: (maxBytes) => readWebBody(request, maxBytes),
    });
  } catch (error) {
    result = adapterFailure(pipeline, error);
  }
  return result.ok ? result : rejectionResponse(result);
}
