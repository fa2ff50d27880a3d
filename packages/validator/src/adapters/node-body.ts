/**
 * Reads a Node request body up to a limit, for the node:http, Express and Fastify adapters. Stops collecting as
 * soon as the body exceeds the limit (a declared Content-Length above it is refused without reading), so an
 * oversized body never sits in memory. Typed structurally, so the main entry's declarations need no Node types.
 */
import { joinChunks } from "../body-bytes";

/** The parts of a Node request (`http.IncomingMessage`, or a test double such as light-my-request's) it reads. */
export interface NodeBodyStream {
  readonly headers: { readonly [name: string]: string | string[] | undefined };
  readonly readableEnded: boolean;
  on(event: "data", listener: (chunk: Uint8Array) => void): unknown;
  on(event: "end" | "aborted", listener: () => void): unknown;
  on(event: "error", listener: (error: Error) => void): unknown;
  off(event: "data", listener: (chunk: Uint8Array) => void): unknown;
  off(event: "end" | "aborted", listener: () => void): unknown;
  off(event: "error", listener: (error: Error) => void): unknown;
  resume(): unknown;
}

/**
 * Whether a body parser already read the body: the stream has ended, or body-parser 1.x marked the request.
 * @internal
 */
export function bodyAlreadyRead(req: NodeBodyStream): boolean {
  return req.readableEnded || (req as { _body?: unknown })._body === true;
}

/**
 * Resolves the body bytes, or `undefined` when the body is larger than `maxBytes`. Rejects when the stream fails
 * (client gone) or was already consumed by a body parser.
 *
 * @example
 * const body = await readNodeBody(req, 1_048_576);
 */
export function readNodeBody(req: NodeBodyStream, maxBytes: number): Promise<Uint8Array | undefined> {
  if (bodyAlreadyRead(req)) return Promise.reject(new TypeError("the request body was already read by a body parser"));
  const declared = req.headers["content-length"];
  if (declared !== undefined && Number(declared) > maxBytes) return Promise.resolve(undefined);
  return new Promise((resolve, reject) => {
    const chunks: Uint8Array[] = [];
    let size = 0;
    const cleanup = () => {
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("error", onError);
      req.off("aborted", onAborted);
    };
    const onData = (chunk: Uint8Array) => {
      size += chunk.byteLength;
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
      resolve(joinChunks(chunks, size));
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
