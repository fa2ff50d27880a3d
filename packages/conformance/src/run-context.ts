/**
 * What every check works with: signed calls (with any part of the request made wrong on purpose), the server's
 * clock as its answers show it, ids unique to this run (so the kit can run again and again against the same
 * merchant), fixtures shared by checks, and the log of every answer.
 */
import { randomBytes, randomInt } from "node:crypto";
import { bodyHash, canonicalString, createNonce, sign } from "@org/webinar-signing";
import { operations, type OperationId } from "@org/webinar-types";
import { judgeAnswer, type Answer } from "./answer";
import type { Credentials } from "./credentials";
import type { ResolvedOptions } from "./options";
import { createServerClock, type ServerClock } from "./server-clock";
import type { Transport } from "./transport";

/** One signed request. Every field but `operationId` and `body` makes the request differ from a correct one. */
export interface CallOptions {
  operationId: OperationId;
  /** The JSON body, serialized once; or the exact body text or bytes. */
  body: unknown;
  /** Send `body` as these exact bytes or text instead of serializing it. */
  rawBody?: Uint8Array | string;
  /** Another key than the main one. */
  credentials?: Credentials;
  /** Request target after the base URL's path, instead of the operation's path (a non-canonical form, say). */
  target?: string;
  /** Another method than `POST`. */
  method?: string;
  /** The path put into the canonical string, instead of the path the request is sent to. */
  signedPath?: string;
  /** `X-Timestamp` instead of the server's current second. */
  timestamp?: string;
  /** `X-Nonce` instead of a fresh one. */
  nonce?: string;
  /** Changes the canonical string before it is signed (a signing mistake). */
  canonical?: (canonical: string) => string;
  /** Changes the signature before it is sent. */
  signature?: (signature: string) => string;
  /** Bytes sent instead of the signed body (a body altered after signing). */
  sentBody?: Uint8Array;
  /** Header overrides: a value replaces the header, a list sends it on several lines, `null` leaves it out. */
  headers?: Record<string, string | readonly string[] | null>;
  /** A header sent twice, on two lines, each time with its correct value. */
  repeatHeader?: "X-API-Key" | "X-Timestamp" | "X-Nonce" | "X-Signature";
}

export interface RunContext {
  readonly options: ResolvedOptions;
  readonly clock: ServerClock;
  /** Sends one signed request and returns its judged answer. */
  call(options: CallOptions): Promise<Answer>;
  /** Sends one unsigned JSON request to an absolute URL (the watch page's ticket exchange); not judged by the spec. */
  postJson(url: string, body: unknown): Promise<Answer>;
  /** An `externalUserId` no earlier run used: `wc-<run>-<label>`. */
  externalUserId(label: string): string;
  /** A mobile number this run has not used yet, in the spec's format. */
  phone(): string;
  /** The same promise for the same key: a fixture made once and shared by the checks that need it. */
  once<T>(key: string, make: () => Promise<T>): Promise<T>;
  /** Every answer so far, the ticket exchange's included (`api: false`). */
  readonly answers: readonly Answer[];
  /** The server's current Unix second, as `X-Timestamp` wants it. */
  serverSeconds(offsetSeconds?: number): string;
}

const encoder = new TextEncoder();

function toBytes(body: Uint8Array | string): Uint8Array {
  return typeof body === "string" ? encoder.encode(body) : body;
}

function applyHeaderOverrides(
  headers: Record<string, string | readonly string[]>,
  overrides: CallOptions["headers"],
): Record<string, string | readonly string[]> {
  const result = { ...headers };
  for (const [name, value] of Object.entries(overrides ?? {})) {
    for (const existing of Object.keys(result))
      if (existing.toLowerCase() === name.toLowerCase()) delete result[existing];
    if (value !== null) result[name] = value;
  }
  return result;
}

/** A call's request as it goes on the wire: signed as the options say, then changed as the check asks. */
async function signedWireRequest(
  options: ResolvedOptions,
  request: CallOptions,
  now: string,
): Promise<{
  target: string;
  method: string;
  headers: Record<string, string | readonly string[]>;
  body: Uint8Array;
  judgedAs: OperationId | undefined;
}> {
  const credentials = request.credentials ?? options.main;
  const operationPath = operations[request.operationId].path;
  const target = `${options.basePath}${request.target ?? operationPath}`;
  const method = request.method ?? "POST";
  const body = toBytes(request.rawBody ?? JSON.stringify(request.body));
  const timestamp = request.timestamp ?? now;
  const nonce = request.nonce ?? createNonce();
  const canonical = canonicalString({
    apiKey: credentials.apiKey,
    path: request.signedPath ?? target,
    timestamp,
    nonce,
    bodyHash: await bodyHash(body),
  });
  const signature = await sign(credentials.secret, request.canonical?.(canonical) ?? canonical);
  const signed: Record<string, string> = {
    "X-API-Key": credentials.apiKey,
    "X-Timestamp": timestamp,
    "X-Nonce": nonce,
    "X-Signature": request.signature?.(signature) ?? signature,
  };
  const repeated =
    request.repeatHeader === undefined
      ? {}
      : { [request.repeatHeader]: [signed[request.repeatHeader]!, signed[request.repeatHeader]!] };
  const headers = applyHeaderOverrides({ "Content-Type": "application/json", ...signed, ...repeated }, request.headers);
  // Only a POST to the operation's own path is that operation; anything else is judged as an error envelope.
  const judgedAs = method === "POST" && request.target === undefined ? request.operationId : undefined;
  return { target, method, headers, body: request.sentBody ?? body, judgedAs };
}

/** The run's context over a transport. */
export function createRunContext(options: ResolvedOptions, transport: Transport): RunContext {
  const clock = createServerClock();
  const answers: Answer[] = [];
  const fixtures = new Map<string, Promise<unknown>>();
  const usedPhones = new Set<string>();
  // Time first, so ids of later runs sort after earlier ones; random, so two kits started at once never collide.
  const runId = `${Date.now().toString(36)}${randomBytes(3).toString("hex")}`;

  const serverSeconds = (offsetSeconds = 0) => String(Math.floor(clock.now() / 1000) + offsetSeconds);

  async function exchange(
    origin: string,
    target: string,
    method: string,
    headers: Record<string, string | readonly string[]>,
    body: Uint8Array,
    operationId: OperationId | undefined,
  ): Promise<Answer> {
    const wire = await transport.send({ origin, target, method, headers, body });
    const date = wire.headers.date;
    clock.observe(typeof date === "string" ? date : undefined, wire.sentAtMs, wire.receivedAtMs);
    const answer: Answer = {
      ...wire,
      operationId,
      request: `${method} ${target}`,
      problems: judgeAnswer(wire, operationId),
      api: true,
    };
    answers.push(answer);
    return answer;
  }

  async function call(request: CallOptions): Promise<Answer> {
    const wire = await signedWireRequest(options, request, serverSeconds());
    return exchange(options.origin, wire.target, wire.method, wire.headers, wire.body, wire.judgedAs);
  }

  async function postJson(url: string, body: unknown): Promise<Answer> {
    const parsed = new URL(url);
    const wire = await transport.send({
      origin: parsed.origin,
      target: `${parsed.pathname}${parsed.search}`,
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: encoder.encode(JSON.stringify(body)),
    });
    const answer: Answer = {
      ...wire,
      operationId: undefined,
      request: `POST ${parsed.pathname}`,
      problems: [],
      api: false,
    };
    answers.push(answer);
    return answer;
  }

  return {
    options,
    clock,
    call,
    postJson,
    answers,
    serverSeconds,
    externalUserId: (label) => `wc-${runId}-${label}`,
    phone() {
      for (;;) {
        // 1, then 5-7, then 9 digits: the spec's format, away from the numbers the request vectors bind.
        const phone = `1${randomInt(5, 8)}${String(randomInt(0, 1_000_000_000)).padStart(9, "0")}`;
        if (!usedPhones.has(phone)) {
          usedPhones.add(phone);
          return phone;
        }
      }
    },
    once<T>(key: string, make: () => Promise<T>): Promise<T> {
      let fixture = fixtures.get(key) as Promise<T> | undefined;
      if (fixture === undefined) {
        fixture = make();
        fixtures.set(key, fixture);
      }
      return fixture;
    },
  };
}
