/**
 * What the node:http, Express and Fastify adapters share: reading a Node request the way the pipeline needs it
 * (the request target as received, every header value, the body stream) and writing the validator's answers.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { RequestVerifier, VerifiedRequest } from "../request-verifier";
import type { RequestHeaders } from "../request-headers";
import type { PathMatch } from "../request-path";
import type { BodyReader, IncomingRequest, RequestRejection } from "../signed-request-types";

/** A Node request as Express and Connect hand it over: `originalUrl` is the target before any mount point was cut. */
export type NodeRequest = IncomingMessage & { originalUrl?: string | undefined };

/** The request target exactly as received. */
export function nodeRequestTarget(req: NodeRequest): string {
  return req.originalUrl ?? req.url ?? "";
}

/**
 * Every header value, repeated headers kept apart: `headersDistinct`, or `rawHeaders` for request objects that
 * lack it (light-my-request's, behind Fastify's `inject()`).
 */
function nodeRequestHeaders(req: IncomingMessage): RequestHeaders {
  if (req.headersDistinct !== undefined) return req.headersDistinct;
  const pairs: Array<[string, string]> = [];
  for (let index = 0; index + 1 < req.rawHeaders.length; index += 2)
    pairs.push([req.rawHeaders[index]!, req.rawHeaders[index + 1]!]);
  return pairs;
}

/** The pipeline's view of a Node request whose target `pathMatch` classified. */
export function incomingNodeRequest(
  req: NodeRequest,
  body: Uint8Array | BodyReader,
  pathMatch: PathMatch,
): IncomingRequest {
  return {
    method: req.method ?? "",
    rawPath: nodeRequestTarget(req),
    headers: nodeRequestHeaders(req),
    body,
    pathMatch,
  };
}

/** How long the rest of a refused request's body is still read, and thrown away, before the answer is written. */
const DRAIN_MS = 500;

/**
 * Reads and discards what is left of a body nobody will read, until it ends or {@link DRAIN_MS} has passed.
 * Closing a connection with unread bytes makes the kernel answer them with a reset, and a client still sending
 * its body then loses the answer too; a body that ends within the bound is read to its end first, one that goes
 * on is cut off.
 */
function drainUnread(req: IncomingMessage): Promise<void> {
  if (req.complete) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      req.off("end", done);
      req.off("close", done);
      resolve();
    };
    const timer = setTimeout(done, DRAIN_MS);
    req.on("end", done);
    req.on("close", done);
    req.resume();
  });
}

/**
 * Writes a rejection (or a preflight's answer) to a Node response. When the request body was not read to its end
 * (refused before reading, or over the limit) the connection is closed instead of kept alive, once the rest of the
 * body has arrived (for at most {@link DRAIN_MS}).
 */
export async function writeNodeRejection(
  req: IncomingMessage,
  res: ServerResponse,
  rejection: RequestRejection,
): Promise<void> {
  const unread = !req.complete;
  await drainUnread(req);
  if (res.headersSent) return;
  const headers: Record<string, string | number> = { ...rejection.headers };
  if (unread) headers.Connection = "close";
  if (rejection.body === null) {
    res.writeHead(rejection.status, headers).end();
    return;
  }
  const json = JSON.stringify(rejection.body);
  headers["Content-Length"] = Buffer.byteLength(json);
  res.writeHead(rejection.status, headers).end(json);
}

/**
 * Verifies a Node request with the body from `body`: writes the answer of a rejected request and resolves
 * `undefined`, or sets the success headers (`X-Request-Id`, CORS) on `res` and resolves the verified request.
 */
export async function verifyNodeRequest(
  verifier: RequestVerifier,
  req: NodeRequest,
  res: ServerResponse,
  body: Uint8Array | BodyReader,
  pathMatch: PathMatch,
): Promise<VerifiedRequest | undefined> {
  const result = await verifier.verify(incomingNodeRequest(req, body, pathMatch));
  if (!result.ok) {
    await writeNodeRejection(req, res, result);
    return undefined;
  }
  for (const [name, value] of Object.entries(result.headers)) res.setHeader(name, value);
  return result;
}
