/**
 * `@org/webinar-validator/hono`: Hono middleware for the four Open API operations, made with Hono's own
 * `createMiddleware`, so `c.get("webinar")` is typed. No Node module is imported: it runs wherever Hono runs (Node
 * with @hono/node-server, Bun, Deno, Workers) and under `app.request()` in tests. On @hono/node-server it reads the
 * Node request Hono was given (`c.env.incoming`), elsewhere the Web `Request`.
 *
 * @example
 * import { Hono } from "hono";
 * import { webinarHono, type WebinarEnv } from "@org/webinar-validator/hono";
 *
 * const app = new Hono<WebinarEnv>();
 * app.use(webinarHono(verifier));
 * app.post("/api/v1/open/viewers/upsert", async (c) => {
 *   const { merchantId, body, requestId } = c.get("webinar");
 *   return c.json({ requestId, data: await upsertViewer(merchantId, body) });
 * });
 */
import type { MiddlewareHandler } from "hono";
import { createMiddleware } from "hono/factory";
import { assertRequestVerifier, type RequestVerifier, type VerifiedRequest } from "../request-verifier";
import type { RequestRejection } from "../signed-request-types";
import { requestTarget } from "../web-request";
import { readNodeBody, type NodeBodyStream } from "./node-body";
import { incomingNodeRequest, nodeRequestTarget, type NodeRequest } from "./node-request";
import { rejectionResponse } from "./web";

/** The Hono environment the middleware provides: `c.get("webinar")` on the operations' routes. */
export interface WebinarEnv {
  Variables: {
    /** The verified request: merchant, operation, validated and trimmed body, request id. */
    webinar: VerifiedRequest;
    /**
     * The refusal the middleware answered instead of calling the handler, for a later middleware that records
     * requests (its error code, and `canonicalString` for a signature mismatch); unset otherwise.
     */
    webinarRejection: RequestRejection | undefined;
  };
}

/**
 * The Node request as @hono/node-server passes it (`c.env.incoming`), or undefined elsewhere (Bun, Deno, Workers,
 * `app.request()`). On Node the request is read as received: its target before any parsing, every header value
 * with repeated headers kept apart, and its body stream, without building a `Request` for it.
 */
function nodeIncoming(env: unknown): (NodeRequest & NodeBodyStream) | undefined {
  const incoming = (env as { incoming?: unknown } | undefined)?.incoming as Partial<NodeRequest> | undefined;
  const isNodeRequest =
    typeof incoming?.url === "string" && Array.isArray(incoming.rawHeaders) && typeof incoming.on === "function";
  return isNodeRequest ? (incoming as NodeRequest & NodeBodyStream) : undefined;
}

/**
 * Puts the verified bytes where Hono keeps a body it has read, so `c.req.json()`, `text()` and `arrayBuffer()` still
 * work after the middleware read the stream. Hono stores the promise of each read there; the entry copies the bytes
 * only when a handler reads them (most handlers use `c.get("webinar").body` instead).
 */
function cacheBody(bodyCache: object, rawBody: Uint8Array): void {
  let read: Promise<ArrayBuffer> | undefined;
  Object.defineProperty(bodyCache, "arrayBuffer", {
    enumerable: true,
    configurable: true,
    get: () => {
      read ??= Promise.resolve(rawBody.slice().buffer);
      return read;
    },
  });
}

/** The id an earlier middleware gave the request (Hono's `requestId` middleware sets this variable), if any. */
function givenRequestId(variable: (name: string) => unknown): string | undefined {
  const requestId = variable("requestId");
  return typeof requestId === "string" && requestId !== "" ? requestId : undefined;
}

/**
 * Hono middleware verifying the four Open API operations; mount it with `app.use()`.
 *
 * - An operation path is verified before the handler: signature, nonce, then the body against the operation's
 *   schema. A rejected request is answered here (error envelope, status, `X-Request-Id`); a verified one reaches
 *   its handler with `c.get("webinar")`, and its answer gets `X-Request-Id` (and CORS headers). The handler can
 *   still read the body as sent with `c.req.json()`, `c.req.text()` or `c.req.arrayBuffer()`.
 * - A non-canonical variant of an operation path (other letter case, trailing slash, query string, encoding) is
 *   answered 401 `OPEN_API_UNAUTHORIZED`; a method other than POST there 405 `REQUEST_INVALID` with
 *   `Allow: POST`; a CORS preflight from an allowed origin 204.
 * - Every other request goes to `next()` untouched.
 * - When an earlier middleware gave the request an id (Hono's `requestId` middleware, or any that sets the
 *   `requestId` variable), every answer carries that id; otherwise the verifier makes one.
 */
export function webinarHono(verifier: RequestVerifier): MiddlewareHandler<WebinarEnv> {
  assertRequestVerifier(verifier, "webinarHono");
  return createMiddleware<WebinarEnv>(async (c, next) => {
    const incoming = nodeIncoming(c.env);
    const rawPath = incoming === undefined ? requestTarget(c.req.raw) : nodeRequestTarget(incoming);
    const pathMatch = verifier.matchPath(rawPath);
    if (pathMatch.kind === "unknown") return next();
    // c.get, not c.var: the latter copies every variable into a new object.
    const requestId = givenRequestId((name) => c.get(name as keyof WebinarEnv["Variables"]));
    const result =
      incoming === undefined
        ? await verifier.verify(c.req.raw, { rawPath, pathMatch, requestId })
        : await verifier.verify({
            ...incomingNodeRequest(incoming, (maxBytes) => readNodeBody(incoming, maxBytes), pathMatch),
            requestId,
          });
    if (!result.ok) {
      c.set("webinarRejection", result);
      return rejectionResponse(result);
    }
    cacheBody(c.req.bodyCache, result.rawBody);
    c.set("webinar", result);
    await next();
    // c.header() on a finished answer copies it (body included): only where the handler did not set them already.
    for (const [name, value] of Object.entries(result.headers))
      if (c.res.headers.get(name) !== value) c.header(name, value);
    return undefined;
  });
}
