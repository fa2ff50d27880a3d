/**
 * Reads a Node request body up to a limit, for the node:http, Express and Fastify adapters. Stops collecting
 * as soon as the body exceeds the limit (a declared Content-Length above it is refused without reading), so an
 * oversized body never sits in memory.
 */
import type { IncomingMessage } from "node:http";

/**
 * Resolves the body bytes, or `undefined` when the body is larger than `maxBytes`. Rejects when the stream fails
 * (client gone) or was already consumed by a body parser mounted before the adapter.
 *
 * @example
 * const body = await readNodeBody(req, 1_048_576);
 */
export function readNodeBody(req: IncomingMessage, maxBytes: number): Promise<Uint8Array | undefined> {
  if (req.readableEnded || (req as { _body?: unknown })._body === true) {
    return Promise.reject(new TypeError("the request body was already read: mount the webinar adapter before any body parser (e.g. express.json())"));
  }
  const declared = req.headers["content-length"];
  if (declared !== undefined && Number(declared) > maxBytes) return Promise.resolve(undefined);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const cleanup = () => {
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("error", onError);
      req.off("aborted", onAborted);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        cleanup();
        // Discard the rest instead of buffering it; the answer closes the connection.
        req.resume();
        resolve(undefined);
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      cleanup();
      resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size));
    };
    const onError = (error: Error) => {
      cleanup();
      reject(error);
    };
    const onAborted = () => onError(new Error("the client aborted the request"));
    req.on("data", onData);
    req.on("end", onEnd);
    req.on("error", onError);
    req.on("aborted", onAborted);
  });
}
