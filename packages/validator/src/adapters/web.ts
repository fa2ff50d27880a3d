/**
 * Web-standard answers (`Request` in, `Response` out) for Workers, Deno, Bun and Next.js route handlers, which
 * have no middleware chain to plug into: the verifier's rejection as a `Response`.
 */
import type { RequestVerifier, VerifiedRequest, VerifyInit } from "../request-verifier";
import type { RequestRejection } from "../signed-request-types";

/** Options of {@link verifyWebRequest}. */
export type WebRequestInit = VerifyInit;

/**
 * A rejection (or a CORS preflight's answer) as a `Response`: the error envelope with its status and headers.
 *
 * @example
 * const result = await verifier.verify(request);
 * if (!result.ok) return rejectionResponse(result);
 */
export function rejectionResponse(rejection: RequestRejection): Response {
  return new Response(rejection.body === null ? null : JSON.stringify(rejection.body), {
    status: rejection.status,
    headers: rejection.headers,
  });
}

/**
 * Verifies a Web `Request`: the verified request, or the `Response` to return. Add `verified.headers` to the
 * handler's response. The same as `verifier.verify(request, init)` with the rejection already a `Response`.
 *
 * @example
 * // Next.js route handler (app/api/v1/open/[...operation]/route.ts) or a Worker's fetch
 * export async function POST(request: Request) {
 *   const verified = await verifyWebRequest(request, verifier);
 *   if (verified instanceof Response) return verified;
 *   const data = await handle(verified);
 *   return Response.json({ requestId: verified.requestId, data }, { headers: verified.headers });
 * }
 */
export async function verifyWebRequest(
  request: Request,
  verifier: RequestVerifier,
  init: WebRequestInit = {},
): Promise<VerifiedRequest | Response> {
  const result = await verifier.verify(request, init);
  return result.ok ? result : rejectionResponse(result);
}
