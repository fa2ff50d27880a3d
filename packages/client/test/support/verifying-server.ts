/**
 * A real HTTP server on 127.0.0.1 for the client's tests, small enough to script failures the reference server never
 * gives. It verifies every request exactly as the spec's "Signing requests" guide says, with @org/webinar-signing: the
 * raw body bytes as received, the path as sent (before any normalization), each signature header exactly once, Unix
 * seconds within ±limits.clockSkewSeconds of its own clock (which a test may set off), the signature compared in
 * constant time, and the nonce consumed only after the signature verified (a reused nonce gives 409 OPEN_API_REPLAYED).
 *
 * Behind the verification it answers from an in-memory dataset (./dataset.ts) with keyset cursors it makes
 * itself, unless a test scripted the next answers: an error envelope, a gateway's HTML page, a redirect, a
 * `Retry-After`, a hang or a dropped connection.
 */
import { createHash, randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { bodyHash, canonicalString, isUnixSeconds, isValidNonce, verify } from "@org/webinar-signing";
import { limits, operations, type ErrorCode, type OperationId, type ViewerWatchRecord } from "@org/webinar-types";
import { createDataset, type Dataset } from "./dataset";

export const TEST_API_KEY = "wk_test_client_suite";
export const TEST_SECRET = "client-suite secret 张三 🎉";

/** A request as the server received it, and what the verification made of it. */
export interface ReceivedRequest {
  method: string;
  /** The request target as sent, e.g. `/api/v1/open/viewers/upsert`. */
  url: string;
  headers: Record<string, string[]>;
  body: Buffer;
  /** `ok` when the request passed verification ("Signing requests"), else the error code verification answered with. */
  verdict: "ok" | ErrorCode;
  /** The status the server answered with. */
  status: number | undefined;
  operationId: OperationId | undefined;
  /** The parsed body, when it was JSON. */
  json: Record<string, unknown> | undefined;
  header(name: string): string | undefined;
}

/** An answer a test scripts instead of the dataset's. */
export type ScriptedAnswer =
  | { status: number; json?: unknown; text?: string; headers?: Record<string, string>; delayMs?: number }
  | { redirect: string; status?: 301 | 302 | 303 | 307 | 308 }
  | { destroy: true };

interface ScriptEntry {
  answer: ScriptedAnswer;
  /** Answered before verification, as a gateway in front of the service would. */
  gateway: boolean;
}

export interface VerifyingServerOptions {
  /** API key -> secret. Default: {@link TEST_API_KEY} -> {@link TEST_SECRET}. */
  credentials?: Record<string, string>;
  /** The server's clock relative to the real one (a server whose clock is off). */
  clockOffsetMs?: number;
  /** The server's clock, overriding `clockOffsetMs` (reproducing a vector's time). */
  now?: () => number;
  /** A path prefix in front of every operation, as behind a gateway (`/gateway/webinar`). */
  pathPrefix?: string;
  /** Viewers and watch records; default 0 viewers. */
  dataset?: Dataset;
}

export interface VerifyingServer {
  /** `http://127.0.0.1:<port>` plus the path prefix. */
  baseUrl: string;
  origin: string;
  received: ReceivedRequest[];
  dataset: Dataset;
  /** Queues answers for the next verified requests of an operation (`*`: any operation). */
  script(operationId: OperationId | "*", ...answers: ScriptedAnswer[]): void;
  /** Queues answers given before verification, as a gateway would (a 413 page, a 502). */
  scriptGateway(operationId: OperationId | "*", ...answers: ScriptedAnswer[]): void;
  /** The server's current time in epoch milliseconds. */
  now(): number;
  close(): Promise<void>;
}

/** An error envelope (`ErrorEnvelope`). */
export function apiError(
  status: number,
  code: ErrorCode,
  message = code.toLowerCase().replaceAll("_", " "),
  extra: { details?: Record<string, unknown>; headers?: Record<string, string> } = {},
): ScriptedAnswer {
  const error = extra.details === undefined ? { code, message } : { code, message, details: extra.details };
  return {
    status,
    json: { requestId: `req_scripted_${randomBytes(4).toString("hex")}`, error },
    ...(extra.headers === undefined ? {} : { headers: extra.headers }),
  };
}

const SIGNATURE_HEADERS = ["x-api-key", "x-timestamp", "x-nonce", "x-signature"] as const;
const operationByPath = new Map<string, OperationId>(
  (Object.keys(operations) as OperationId[]).map((operationId) => [operations[operationId].path, operationId]),
);

class Rejection {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    readonly message: string,
  ) {}
}

async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** What one server's request handling reads and keeps. */
interface ServerState {
  credentials: Record<string, string>;
  now: () => number;
  prefix: string;
  dataset: Dataset;
  received: ReceivedRequest[];
  consumedNonces: Set<string>;
  scripts: Map<string, ScriptEntry[]>;
  requestCounter: number;
}

function takeScripted(
  state: ServerState,
  operationId: OperationId | undefined,
  gateway: boolean,
): ScriptedAnswer | undefined {
  for (const key of [operationId ?? "", "*"]) {
    const queue = state.scripts.get(key);
    const index = queue?.findIndex((entry) => entry.gateway === gateway) ?? -1;
    if (queue !== undefined && index >= 0) return queue.splice(index, 1)[0]!.answer;
  }
  return undefined;
}

function send(
  state: ServerState,
  response: ServerResponse,
  status: number,
  body: string,
  headers: Record<string, string> = {},
): void {
  response.writeHead(status, {
    "Content-Type": "application/json",
    Date: new Date(state.now()).toUTCString(),
    ...headers,
  });
  response.end(body);
}

function sendJson(state: ServerState, response: ServerResponse, status: number, json: unknown): void {
  send(state, response, status, JSON.stringify(json));
}

function nextRequestId(state: ServerState): string {
  state.requestCounter += 1;
  return `req_${String(state.requestCounter).padStart(6, "0")}`;
}

async function answerScripted(state: ServerState, response: ServerResponse, answer: ScriptedAnswer): Promise<void> {
  if ("destroy" in answer) {
    response.socket?.destroy();
    return;
  }
  if ("redirect" in answer) {
    send(state, response, answer.status ?? 302, "", { Location: answer.redirect });
    return;
  }
  if (answer.delayMs !== undefined) await new Promise((resolve) => setTimeout(resolve, answer.delayMs));
  if (response.destroyed) return;
  const body = answer.text ?? JSON.stringify(answer.json ?? {});
  const headers =
    answer.text === undefined ? answer.headers : { "Content-Type": "text/html; charset=utf-8", ...answer.headers };
  send(state, response, answer.status, body, headers);
}

/** The checks of the spec's "Signing requests" guide, in order; throws the Rejection of the first that fails. */
async function verifySignature(
  state: ServerState,
  request: IncomingMessage,
  body: Buffer,
  path: string,
): Promise<void> {
  const distinct = request.headersDistinct;
  for (const name of SIGNATURE_HEADERS) {
    if (distinct[name]?.length !== 1) throw new Rejection(400, "REQUEST_INVALID", `${name} must appear exactly once`);
  }
  const one = (name: string) => distinct[name]![0]!;
  if (request.headers["content-type"] !== "application/json")
    throw new Rejection(400, "REQUEST_INVALID", "Content-Type must be application/json");
  const encoding = request.headers["content-encoding"];
  if (encoding !== undefined && encoding !== "identity")
    throw new Rejection(400, "REQUEST_INVALID", "the body must not be compressed");
  if (body.length > limits.maxBodyBytes) throw new Rejection(400, "REQUEST_INVALID", "body over limit");
  const [apiKey, timestamp, nonce, signature] = SIGNATURE_HEADERS.map(one) as [string, string, string, string];
  if (!isUnixSeconds(timestamp)) throw new Rejection(400, "REQUEST_INVALID", "X-Timestamp must be Unix seconds");
  if (!isValidNonce(nonce)) throw new Rejection(400, "REQUEST_INVALID", "invalid nonce");
  const secret = state.credentials[apiKey];
  if (secret === undefined) throw new Rejection(401, "OPEN_API_UNAUTHORIZED", "unknown API key");
  const hash = await bodyHash(new Uint8Array(body));
  const canonical = canonicalString({ apiKey, path, timestamp, nonce, bodyHash: hash });
  if (!(await verify(secret, canonical, signature)))
    throw new Rejection(401, "OPEN_API_UNAUTHORIZED", "request signature could not be verified");
  if (Math.abs(Math.floor(state.now() / 1000) - Number(timestamp)) > limits.clockSkewSeconds) {
    throw new Rejection(401, "OPEN_API_UNAUTHORIZED", "timestamp outside the accepted clock skew");
  }
  const nonceKey = `${apiKey}\n${nonce}`;
  if (state.consumedNonces.has(nonceKey)) throw new Rejection(409, "OPEN_API_REPLAYED", "nonce already used");
  state.consumedNonces.add(nonceKey);
}

function parsedObject(body: Buffer): Record<string, unknown> | undefined {
  try {
    const parsed: unknown = JSON.parse(body.toString("utf8"));
    return typeof parsed === "object" && parsed !== null && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/** Records the request, then answers: a scripted gateway answer, a rejection, a scripted answer or the dataset's. */
async function handle(state: ServerState, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const body = await readBody(request);
  const url = request.url ?? "";
  const operationPath = url.startsWith(state.prefix) ? url.slice(state.prefix.length) : undefined;
  const operationId = operationPath === undefined ? undefined : operationByPath.get(operationPath);
  const json = parsedObject(body);
  const record: ReceivedRequest = {
    method: request.method ?? "",
    url,
    headers: request.headersDistinct as Record<string, string[]>,
    body,
    verdict: "ok",
    status: undefined,
    operationId,
    json,
    header: (name) => request.headersDistinct[name.toLowerCase()]?.[0],
  };
  state.received.push(record);
  response.on("finish", () => {
    record.status = response.statusCode;
  });
  const gatewayAnswer = takeScripted(state, operationId, true);
  if (gatewayAnswer !== undefined) return answerScripted(state, response, gatewayAnswer);
  let verified = false;
  try {
    if (request.method !== "POST") throw new Rejection(405, "REQUEST_INVALID", "method not allowed");
    if (operationId === undefined) throw new Rejection(404, "REQUEST_INVALID", `no operation at ${url}`);
    await verifySignature(state, request, body, url);
    verified = true;
    const scripted = takeScripted(state, operationId, false);
    if (scripted !== undefined) return answerScripted(state, response, scripted);
    if (json === undefined) throw new Rejection(400, "REQUEST_INVALID", "the body must be one JSON object");
    const data = answerFromDataset(state, operationId, json);
    sendJson(state, response, 200, { requestId: nextRequestId(state), data });
  } catch (error) {
    if (!(error instanceof Rejection)) throw error;
    if (!verified) record.verdict = error.code;
    const envelope = { requestId: nextRequestId(state), error: { code: error.code, message: error.message } };
    sendJson(state, response, error.status, envelope);
  }
}

function answerFromDataset(state: ServerState, operationId: OperationId, body: Record<string, unknown>): unknown {
  switch (operationId) {
    case "upsertViewer":
      return upsert(state.dataset, body);
    case "issueLoginTicket":
      return issueTicket(state.dataset, body, state.now());
    case "getWatchOverview":
      return overview(state.dataset, body);
    case "queryViewerWatch":
      return queryPage(state.dataset, body);
  }
}

/** Starts a verifying server on 127.0.0.1, port 0. */
export async function startVerifyingServer(options: VerifyingServerOptions = {}): Promise<VerifyingServer> {
  const state: ServerState = {
    credentials: options.credentials ?? { [TEST_API_KEY]: TEST_SECRET },
    now: options.now ?? (() => Date.now() + (options.clockOffsetMs ?? 0)),
    prefix: options.pathPrefix ?? "",
    dataset: options.dataset ?? createDataset(0),
    received: [],
    consumedNonces: new Set(),
    scripts: new Map(),
    requestCounter: 0,
  };
  const sockets = new Set<Socket>();
  const server = createServer((request, response) => {
    handle(state, request, response).catch((error: unknown) => {
      const envelope = { requestId: nextRequestId(state), error: { code: "INTERNAL_ERROR", message: String(error) } };
      sendJson(state, response, 500, envelope);
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const queue =
    (gateway: boolean) =>
    (operationId: OperationId | "*", ...answers: ScriptedAnswer[]) => {
      const entries = state.scripts.get(operationId) ?? [];
      entries.push(...answers.map((answer) => ({ answer, gateway })));
      state.scripts.set(operationId, entries);
    };

  return {
    baseUrl: `${origin}${state.prefix}`,
    origin,
    received: state.received,
    dataset: state.dataset,
    script: queue(false),
    scriptGateway: queue(true),
    now: state.now,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function reject(status: number, code: ErrorCode, message: string): never {
  throw new Rejection(status, code, message);
}

function upsert(dataset: Dataset, body: Record<string, unknown>) {
  const { externalUserId, phone, displayName } = body;
  if (typeof externalUserId !== "string" || externalUserId.trim() === "")
    reject(400, "REQUEST_INVALID", "externalUserId is required");
  if (phone === null) reject(400, "REQUEST_INVALID", "phone must be a string");
  const id = externalUserId.trim();
  const existing = [...dataset.viewers.values()].find((viewer) => viewer.externalUserId === id);
  const newPhone = typeof phone === "string" && phone.trim() !== "" ? phone.trim() : undefined;
  const holder =
    newPhone === undefined ? undefined : [...dataset.viewers.values()].find((viewer) => viewer.phone === newPhone);
  if (holder !== undefined && holder !== existing)
    reject(409, "VIEWER_IDENTITY_CONFLICT", "phone is bound to another viewer");
  const viewer = existing ?? { uid: dataset.nextUid++, externalUserId: id, phone: null, displayName: null };
  if (newPhone !== undefined) viewer.phone = newPhone;
  if (displayName === null) viewer.displayName = null;
  else if (typeof displayName === "string") viewer.displayName = displayName.trim();
  dataset.viewers.set(viewer.uid, viewer);
  return { viewer: { ...viewer }, created: existing === undefined };
}

function issueTicket(dataset: Dataset, body: Record<string, unknown>, nowMs: number) {
  const { uid, ticketCode } = body;
  if (typeof uid !== "number" || uid < limits.uidMin || uid > limits.uidMax)
    reject(400, "REQUEST_INVALID", "uid out of range");
  if (!dataset.viewers.has(uid)) reject(404, "VIEWER_NOT_FOUND", "no such viewer");
  const webinar = typeof ticketCode === "string" ? dataset.webinars.get(ticketCode) : undefined;
  if (webinar === undefined || !webinar.published) reject(404, "WEBINAR_NOT_FOUND", "no such published webinar");
  const loginTicket = `lt_${randomBytes(18).toString("base64url")}`;
  return {
    loginTicket,
    loginUrl: `https://watch.example.com/w/${webinar.ticketCode}#login_ticket=${loginTicket}`,
    expiresAt: new Date(nowMs + 60_000).toISOString().replace(/\.\d{3}Z$/, "Z"),
  };
}

function overview(dataset: Dataset, body: Record<string, unknown>) {
  const webinar = typeof body.ticketCode === "string" ? dataset.webinars.get(body.ticketCode) : undefined;
  if (webinar === undefined) reject(404, "WEBINAR_NOT_FOUND", "no such webinar");
  if (!["ALL", "LIVE", "REPLAY"].includes(String(body.playbackMode)))
    reject(400, "REQUEST_INVALID", "playbackMode is required");
  const records = dataset.records.get(webinar.ticketCode) ?? [];
  const dataState =
    body.playbackMode === "LIVE"
      ? webinar.liveStates.length > 1
        ? webinar.liveStates.shift()!
        : webinar.liveStates[0]!
      : "PROVISIONAL";
  const watchSeconds = records.reduce((sum, record) => sum + record.totalWatchSeconds, 0);
  const sessionCount = records.reduce((sum, record) => sum + record.sessionCount, 0);
  const registered = { viewerCount: records.length, sessionCount, watchSeconds };
  return {
    ticketCode: webinar.ticketCode,
    dataState,
    all: registered,
    registered,
    anonymous: { viewerCount: 0, sessionCount: 0, watchSeconds: 0 },
    liveWatchSeconds: records.reduce((sum, record) => sum + record.liveWatchSeconds, 0),
    replayWatchSeconds: records.reduce((sum, record) => sum + record.replayWatchSeconds, 0),
  };
}

type SortKey = [number, number];

const sortKeys: Record<string, (record: ViewerWatchRecord) => SortKey> = {
  WATCH_SECONDS_DESC: (record) => [-record.totalWatchSeconds, record.uid],
  LAST_WATCHED_DESC: (record) => [-Date.parse(record.lastWatchedAt), record.uid],
  FIRST_WATCHED_ASC: (record) => [Date.parse(record.firstWatchedAt), record.uid],
};
const compareKeys = (a: SortKey, b: SortKey) => a[0] - b[0] || a[1] - b[1];

/** Keyset pagination: the cursor holds the last key and a fingerprint of the query it belongs to. */
function queryPage(dataset: Dataset, body: Record<string, unknown>) {
  const { ticketCode, playbackMode, sort, pageSize, cursor } = body;
  const uids = (body.uids ?? []) as number[];
  const externalUserIds = (body.externalUserIds ?? []) as string[];
  const minWatchSeconds = (body.minWatchSeconds ?? 0) as number;
  if (!["ALL", "LIVE", "REPLAY"].includes(String(playbackMode)))
    reject(400, "REQUEST_INVALID", "playbackMode is required");
  const keyOf = typeof sort === "string" ? sortKeys[sort] : undefined;
  if (keyOf === undefined) reject(400, "REQUEST_INVALID", "sort is required");
  if (
    typeof pageSize !== "number" ||
    !Number.isInteger(pageSize) ||
    pageSize < limits.pageSizeMin ||
    pageSize > limits.pageSizeMax
  ) {
    reject(400, "REQUEST_INVALID", "pageSize must be 1-100");
  }
  if (uids.length + externalUserIds.length > limits.maxCombinedIds)
    reject(400, "WATCH_REQUEST_INVALID", "uids and externalUserIds above 300");
  const webinar = typeof ticketCode === "string" ? dataset.webinars.get(ticketCode) : undefined;
  if (webinar === undefined) reject(404, "WEBINAR_NOT_FOUND", "no such webinar");
  const fingerprint = createHash("sha256")
    .update(JSON.stringify([ticketCode, playbackMode, sort, uids, externalUserIds, minWatchSeconds]))
    .digest("base64url")
    .slice(0, 16);
  let after: SortKey | undefined;
  if (cursor !== undefined) {
    if (typeof cursor !== "string" || cursor.length > limits.cursorMaxLength)
      reject(400, "WATCH_REQUEST_INVALID", "cursor too long");
    let decoded: { q?: unknown; k?: unknown };
    try {
      decoded = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as { q?: unknown; k?: unknown };
    } catch {
      reject(400, "WATCH_REQUEST_INVALID", "cursor does not match the query");
    }
    if (decoded.q !== fingerprint || !Array.isArray(decoded.k))
      reject(400, "WATCH_REQUEST_INVALID", "cursor does not match the query");
    after = decoded.k as SortKey;
  }
  const uidSet = new Set(uids);
  const externalSet = new Set(externalUserIds);
  const filtered = uidSet.size + externalSet.size === 0;
  const matching = (dataset.records.get(webinar.ticketCode) ?? [])
    .filter(
      (record) =>
        filtered ||
        uidSet.has(record.uid) ||
        (record.externalUserId !== undefined && externalSet.has(record.externalUserId)),
    )
    .filter((record) => record.totalWatchSeconds >= minWatchSeconds)
    .map((record) => ({ record, key: keyOf(record) }))
    .sort((a, b) => compareKeys(a.key, b.key))
    .filter(({ key }) => after === undefined || compareKeys(key, after) > 0);
  const page = matching.slice(0, pageSize);
  const last = page.at(-1);
  const more = matching.length > pageSize && last !== undefined;
  const items = page.map(({ record }) => record);
  return more
    ? { items, nextCursor: Buffer.from(JSON.stringify({ q: fingerprint, k: last.key })).toString("base64url") }
    : { items };
}
