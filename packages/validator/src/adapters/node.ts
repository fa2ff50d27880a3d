/**
 * node:http adapter: verifies a request straight from `http.createServer`, reading `req.url` raw and
 * `req.headersDistinct` (repeated headers stay visible; `req.headers` would drop or join them).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { adapterFailure, toRequestVerifier, type RequestVerifier, type RequestVerifierOptions, type VerifiedRequest } from "../request-verifier";
import type { IncomingRequest, RequestRejection } from "../verify-signed-request";
import { readNodeBody } from "./node-body";

/**
 * The framework-neutral request of a Node `IncomingMessage`; the body is read only when the headers pass.
 * @internal
 */
export function incomingNodeRequest(req: IncomingMessage, rawPath: string | undefined = req.url): IncomingRequest {
  return {
    method: req.method ?? "",
    rawPath: rawPath ?? "",
    headers: req.headersDistinct,
    body: (maxBytes) => readNodeBody(req, maxBytes),
  };
}

/**
 * Writes a rejection (or a preflight answer) to a Node response. When the request body was not read to its end
 * (refused before reading, or over the limit) the connection is closed instead of kept alive.
 *
 * @example
 * const result = await verifier.verify({ method: req.method!, rawPath: req.url!, headers: req.headersDistinct, body });
 * if (!result.ok) return writeNodeRejection(req, res, result);
 */
export function writeNodeRejection(req: IncomingMessage, res: ServerResponse, rejection: RequestRejection): void {
  const headers: Record<string, string | number> = { ...rejection.headers };
  if (!req.complete) headers.Connection = "close";
  if (rejection.body === null) {
    res.writeHead(rejection.status, headers).end();
    return;
  }
  const json = JSON.stringify(rejection.body);
  headers["Content-Length"] = Buffer.byteLength(json);
  res.writeHead(rejection.status, headers).end(json);
}

/**
 * Verifies a node:http request. On success returns the verified request (the success headers, `X-Request-Id`
 * and CORS, are already set on `res`); otherwise writes the error envelope with its status and returns
 * `undefined`.
 *
 * @example
 * const verifier = createRequestVerifier({ lookupKey, nonceStore: createMemoryNonceStore() });
 * http.createServer(async (req, res) => {
 *   const webinar = await verifyNodeRequest(req, res, verifier);
 *   if (webinar === undefined) return; // answered already
 *   res.setHeader("Content-Type", "application/json");
 *   res.end(JSON.stringify({ requestId: webinar.requestId, data: await handle(webinar) }));
 * }).listen(8080);
 */
export async function verifyNodeRequest(
  req: IncomingMessage,
  res: ServerResponse,
  verifier: RequestVerifier | RequestVerifierOptions,
): Promise<VerifiedRequest | undefined> {
  const pipeline = toRequestVerifier(verifier);
  let result: VerifiedRequest | RequestRejection;
  try {
    result = await pipeline.verify(incomingNodeRequest(req, (req as { originalUrl?: string }).originalUrl ?? req.url));
  } catch (error) {
    result = adapterFailure(pipeline, error);
  }
  if (!result.ok) {
    if (!res.headersSent) writeNodeRejection(req, res, result);
    return undefined;
  }
  for (const [name, value] of Object.entries(result.headers)) res.setHeader(name, value);
  return result;
}
