/**
 * Raw HTTP/1.1 exchanges with node:http and node:https. The checks need what `fetch` forbids or normalizes away:
 * a request target sent exactly as written (dot segments, double slashes, percent-escapes), a header sent twice
 * on two lines, any method, and bytes that are not the body's signed bytes.
 */
import http, { type IncomingHttpHeaders } from "node:http";
import https from "node:https";

/** One request as it goes on the wire. */
export interface WireRequest {
  /** `http://host:port` of the server. */
  origin: string;
  /** The request target exactly as sent: path and query, never normalized. */
  target: string;
  method: string;
  /** Header values; a list sends the header once per value, on separate lines. */
  headers: Record<string, string | readonly string[]>;
  body: Uint8Array;
}

/** What came back. `json` is the parsed body when the body is JSON, otherwise `undefined`. */
export interface WireAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  json: unknown;
  isJson: boolean;
  /** Local clock (epoch ms) when the request was sent and when the answer's headers arrived. */
  sentAtMs: number;
  receivedAtMs: number;
}

export interface Transport {
  send(request: WireRequest): Promise<WireAnswer>;
  /** Closes the kept-alive connections. */
  close(): void;
}

function parseJson(text: string): { isJson: boolean; json: unknown } {
  try {
    return { isJson: true, json: JSON.parse(text) as unknown };
  } catch {
    return { isJson: false, json: undefined };
  }
}

/** Connections per origin: enough for the concurrency checks' 20 requests to be in flight at once. */
const MAX_SOCKETS = 24;

/**
 * How long a kept-alive connection may wait idle before the kit closes it: shorter than the idle timeouts servers
 * commonly use, and node:http shortens it further to a second before a `Keep-Alive: timeout=N` the server sends.
 * A connection the server closes just as the kit sends on it resets that request (`ECONNRESET`), which the kit
 * would report as the server's failure; closing it first on the kit's side leaves no such moment.
 */
export const IDLE_CONNECTION_MS = 2000;

/** A transport with kept-alive connections; each request fails after `timeoutMs` without an answer. */
export function createTransport(timeoutMs: number): Transport {
  const agents = {
    "http:": new http.Agent({ keepAlive: true, maxSockets: MAX_SOCKETS, timeout: IDLE_CONNECTION_MS }),
    "https:": new https.Agent({ keepAlive: true, maxSockets: MAX_SOCKETS, timeout: IDLE_CONNECTION_MS }),
  };
  return {
    send(request) {
      const url = new URL(request.origin);
      const protocol = url.protocol === "https:" ? "https:" : "http:";
      const send = protocol === "https:" ? https.request : http.request;
      return new Promise<WireAnswer>((resolve, reject) => {
        const sentAtMs = Date.now();
        const outgoing = send({
          protocol,
          hostname: url.hostname.replace(/^\[|\]$/g, ""),
          port: url.port === "" ? undefined : Number(url.port),
          method: request.method,
          path: request.target,
          agent: agents[protocol],
          headers: { ...request.headers, "Content-Length": String(request.body.byteLength) },
          timeout: timeoutMs,
        });
        outgoing.on("timeout", () =>
          outgoing.destroy(new Error(`no answer within ${timeoutMs} ms to ${request.method} ${request.target}`)),
        );
        outgoing.on("error", reject);
        outgoing.on("response", (incoming) => {
          const receivedAtMs = Date.now();
          const chunks: Buffer[] = [];
          incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
          incoming.on("error", reject);
          incoming.on("end", () => {
            const text = Buffer.concat(chunks).toString("utf8");
            resolve({
              status: incoming.statusCode ?? 0,
              headers: incoming.headers,
              text,
              ...parseJson(text),
              sentAtMs,
              receivedAtMs,
            });
          });
        });
        outgoing.end(request.body);
      });
    },
    close() {
      agents["http:"].destroy();
      agents["https:"].destroy();
    },
  };
}
