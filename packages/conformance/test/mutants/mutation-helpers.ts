/** Small pieces the mutants are made of: reading and rewriting bodies, recognizing operations, answering errors. */
import { randomBytes } from "node:crypto";
import { operations, type OperationId } from "@org/webinar-types";
import type { ProxyAnswer, ProxyRequest, ProxyState } from "./mutating-proxy";

export function isOperation(request: ProxyRequest, operationId: OperationId): boolean {
  return request.target === operations[operationId].path;
}

export const isOpenApi = (request: ProxyRequest) => request.target.startsWith("/api/");
export const isExchange = (request: ProxyRequest) => request.target === "/w/api/session";

/** The request's body as JSON, or `undefined` when it is none. */
export function jsonOf(request: ProxyRequest): Record<string, unknown> | undefined {
  try {
    const value = JSON.parse(request.body.toString("utf8")) as unknown;
    return typeof value === "object" && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

export const withJson = (request: ProxyRequest, body: unknown): ProxyRequest => ({
  ...request,
  body: Buffer.from(JSON.stringify(body)),
});

/** The request with its body changed by `change` and signed again, as a server skipping a rule would read it. */
export async function rewritten(
  request: ProxyRequest,
  state: ProxyState,
  change: (body: Record<string, unknown>) => Record<string, unknown> | undefined,
): Promise<ProxyRequest> {
  const body = jsonOf(request);
  const changed = body === undefined ? undefined : change({ ...body });
  return changed === undefined ? request : state.resign(request, withJson(request, changed));
}

export function header(request: ProxyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

export const freshNonce = () => randomBytes(16).toString("hex");

/** An error envelope of the API, as the reference server renders one. */
export function errorAnswer(status: number, code: string, message = "mutant"): ProxyAnswer {
  const json = { requestId: `req_${randomBytes(8).toString("hex")}`, error: { code, message } };
  return { status, headers: { "content-type": "application/json" }, json, text: JSON.stringify(json) };
}

export const errorCodeOf = (answer: ProxyAnswer) =>
  (answer.json as { error?: { code?: string } } | undefined)?.error?.code;

/** Changes `data` of a success answer. */
export function withData(answer: ProxyAnswer, change: (data: Record<string, unknown>) => void): ProxyAnswer {
  if (answer.status !== 200) return answer;
  const data = (answer.json as { data?: Record<string, unknown> } | undefined)?.data;
  if (data !== undefined) change(data);
  return answer;
}

/** A set kept in a mutation's memory under `name`. */
export function memorySet(state: ProxyState, name: string): Set<string> {
  let set = state.memory.get(name) as Set<string> | undefined;
  if (set === undefined) {
    set = new Set();
    state.memory.set(name, set);
  }
  return set;
}

/** A map kept in a mutation's memory under `name`. */
export function memoryMap<T>(state: ProxyState, name: string): Map<string, T> {
  let map = state.memory.get(name) as Map<string, T> | undefined;
  if (map === undefined) {
    map = new Map();
    state.memory.set(name, map);
  }
  return map;
}
