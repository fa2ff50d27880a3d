/**
 * A broken server made from the reference server: an HTTP proxy in front of it that rewrites requests on their way
 * in or answers on their way out, as one mutant says. It sees the admin API pass through, so it learns each API
 * key's secret when the key is issued and can sign a request again after changing it, as a server that skipped a
 * rule would have accepted it.
 */
import { createServer, request as httpRequest, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { bodyHash, canonicalString, sign } from "@org/webinar-signing";

/** A request as it arrived: header names in lower case, a header sent twice as a list. */
export interface ProxyRequest {
  method: string;
  target: string;
  headers: Record<string, string | string[]>;
  body: Buffer;
}

/** An answer on its way out; `json` is the parsed body, written back when a mutation changed it. */
export interface ProxyAnswer {
  status: number;
  headers: Record<string, string | string[]>;
  json: unknown;
  text: string;
}

/** What a mutation knows: the secrets seen so far, and memory of its own across requests. */
export interface ProxyState {
  secrets: Map<string, string>;
  memory: Map<string, unknown>;
  /** `request` signed with its key's secret, over its target, timestamp, nonce and body as they are. */
  sign(request: ProxyRequest): Promise<ProxyRequest>;
  /**
   * `changed` signed again when `original` was signed correctly, so a rewrite breaks only the mutant's own rule;
   * a wrongly signed original keeps its wrong signature and is refused as the reference server refuses it.
   */
  resign(original: ProxyRequest, changed: ProxyRequest): Promise<ProxyRequest>;
}

export interface Mutation {
  /** Changes a request before the reference server sees it, or answers it instead (`{ answer }`). */
  request?(request: ProxyRequest, state: ProxyState): Promise<ProxyRequest | { answer: ProxyAnswer }>;
  /** Changes an answer before the client sees it. */
  answer?(answer: ProxyAnswer, request: ProxyRequest, state: ProxyState): Promise<ProxyAnswer> | ProxyAnswer;
}

export interface MutatingProxy {
  url: string;
  close(): Promise<void>;
}

function headersOf(incoming: IncomingMessage): Record<string, string | string[]> {
  const headers: Record<string, string | string[]> = {};
  for (let index = 0; index < incoming.rawHeaders.length; index += 2) {
    const name = incoming.rawHeaders[index]!.toLowerCase();
    const value = incoming.rawHeaders[index + 1]!;
    const earlier = headers[name];
    headers[name] = earlier === undefined ? value : [...(Array.isArray(earlier) ? earlier : [earlier]), value];
  }
  return headers;
}

async function bodyOf(stream: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

const single = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value);

function forward(upstream: URL, request: ProxyRequest): Promise<ProxyAnswer> {
  const headers = { ...request.headers, host: upstream.host, "content-length": String(request.body.byteLength) };
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      { hostname: upstream.hostname, port: upstream.port, method: request.method, path: request.target, headers },
      (incoming) => {
        void bodyOf(incoming).then((body) => {
          const text = body.toString("utf8");
          let json: unknown;
          try {
            json = JSON.parse(text);
          } catch {
            json = undefined;
          }
          resolve({ status: incoming.statusCode ?? 502, headers: headersOf(incoming), json, text });
        }, reject);
      },
    );
    outgoing.on("error", reject);
    outgoing.end(request.body);
  });
}

function createState(): ProxyState {
  const secrets = new Map<string, string>();
  async function signatureOf(request: ProxyRequest): Promise<string | undefined> {
    const apiKey = single(request.headers["x-api-key"]) ?? "";
    const secret = secrets.get(apiKey);
    if (secret === undefined) return undefined;
    const canonical = canonicalString({
      apiKey,
      path: request.target,
      timestamp: single(request.headers["x-timestamp"]) ?? "",
      nonce: single(request.headers["x-nonce"]) ?? "",
      bodyHash: await bodyHash(new Uint8Array(request.body)),
    });
    return sign(secret, canonical);
  }
  const signed = async (request: ProxyRequest) => {
    const signature = await signatureOf(request);
    return signature === undefined
      ? request
      : { ...request, headers: { ...request.headers, "x-signature": signature } };
  };
  return {
    secrets,
    memory: new Map(),
    sign: signed,
    async resign(original, changed) {
      const expected = await signatureOf(original);
      const sent = original.headers["x-signature"];
      return expected !== undefined && sent === expected ? signed(changed) : changed;
    },
  };
}

/** Learns the secret of every key the admin API issues through the proxy. */
function learnSecrets(answer: ProxyAnswer, request: ProxyRequest, state: ProxyState): void {
  if (!/^\/admin\/v1\/merchants\/[^/]+\/api-keys$/.test(request.target) || answer.status !== 201) return;
  const { apiKey, secret } = answer.json as { apiKey: string; secret: string };
  state.secrets.set(apiKey, secret);
}

/** The answer's bytes: its JSON as a mutation left it, or its text when it was no JSON. */
function rendered(answer: ProxyAnswer): { headers: Record<string, string | string[]>; body: string } {
  const body = answer.json === undefined ? answer.text : JSON.stringify(answer.json);
  const headers = { ...answer.headers };
  delete headers["transfer-encoding"];
  headers["content-length"] = String(Buffer.byteLength(body));
  return { headers, body };
}

/** Starts a proxy to `upstream` that applies `mutation`; secrets of keys issued before it started come in `secrets`. */
export async function startMutatingProxy(
  upstream: string,
  mutation: Mutation,
  secrets: Record<string, string>,
): Promise<MutatingProxy> {
  const target = new URL(upstream);
  const state = createState();
  for (const [apiKey, secret] of Object.entries(secrets)) state.secrets.set(apiKey, secret);
  const server: Server = createServer((incoming, outgoing) => {
    void (async () => {
      const arrived: ProxyRequest = {
        method: incoming.method ?? "GET",
        target: incoming.url ?? "/",
        headers: headersOf(incoming),
        body: await bodyOf(incoming),
      };
      const changed = mutation.request === undefined ? arrived : await mutation.request(arrived, state);
      let answer: ProxyAnswer;
      if ("answer" in changed) answer = changed.answer;
      else {
        answer = await forward(target, changed);
        learnSecrets(answer, changed, state);
        answer = mutation.answer === undefined ? answer : await mutation.answer(answer, changed, state);
      }
      const { headers, body } = rendered(answer);
      outgoing.writeHead(answer.status, headers);
      outgoing.end(body);
    })().catch((error: unknown) => {
      outgoing.writeHead(502, { "content-type": "text/plain" });
      outgoing.end(`mutating proxy: ${String(error)}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
