/**
 * The watch page's API (watch-openapi.yaml) as typed calls: the bodies and answers are the document's schemas
 * (watch-openapi.gen.ts), so a request the document does not allow, or a field it does not give, fails the
 * build. Same-origin requests: the cookies the exchange and the first start set travel by themselves.
 */
import type { components, operations } from "../watch-openapi.gen";

export type WatchState = components["schemas"]["WatchState"];
export type PlaybackMode = components["schemas"]["PlaybackMode"];
export type ErrorBody = components["schemas"]["ErrorEnvelope"]["error"];

/** The operations the page sends a JSON body to, by their path. */
const POST_PATHS = {
  exchangeLoginTicket: "/w/api/session",
  startPlayback: "/w/api/playback/start",
  sendHeartbeat: "/w/api/playback/heartbeat",
  stopPlayback: "/w/api/playback/stop",
} as const;

type PostOperationId = keyof typeof POST_PATHS;
type RequestBody<Id extends PostOperationId> = operations[Id]["requestBody"]["content"]["application/json"];
type Success<Id extends keyof operations> = operations[Id]["responses"][200]["content"]["application/json"];

/** An answer: the success body, or the status and the error (undefined when the answer was not JSON). */
export type Answer<T> = { ok: true; status: number; body: T } | { ok: false; status: number; error?: ErrorBody };

async function answerOf<T>(response: Response): Promise<Answer<T>> {
  const json: unknown = await response.json().catch(() => undefined);
  if (response.ok) return { ok: true, status: response.status, body: json as T };
  const error = (json as { error?: ErrorBody } | undefined)?.error;
  return error === undefined ? { ok: false, status: response.status } : { ok: false, status: response.status, error };
}

/**
 * POSTs one operation's body. `keepalive` lets the last heartbeat or stop of a page being closed still arrive.
 *
 * @example
 * const answer = await post("sendHeartbeat", { playbackId, playing: true });
 * if (answer.ok) answer.body.creditedSeconds;
 */
export async function post<Id extends PostOperationId>(
  operationId: Id,
  body: RequestBody<Id>,
): Promise<Answer<Success<Id>>> {
  const response = await fetch(POST_PATHS[operationId], {
    method: "POST",
    credentials: "same-origin",
    keepalive: true,
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return answerOf(response);
}

/** `GET /w/api/state` for the page's webinar. */
export async function readState(ticketCode: string): Promise<Answer<Success<"getWatchState">>> {
  const response = await fetch(`/w/api/state?ticketCode=${encodeURIComponent(ticketCode)}`, {
    credentials: "same-origin",
  });
  return answerOf(response);
}
