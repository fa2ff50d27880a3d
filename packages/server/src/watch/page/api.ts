/**
 * The watch page's API (watch-openapi.yaml) through openapi-fetch with the document's generated types
 * (watch-openapi.gen.ts): a path, a body or a field the document does not have fails the build. Same-origin
 * requests: the cookies the exchange and the first start set travel by themselves. `keepalive` lets the last
 * heartbeat or stop of a page being closed still arrive.
 */
import createClient from "openapi-fetch";
import type { components, paths } from "../watch-openapi.gen";

export type WatchState = components["schemas"]["WatchState"];
export type PlaybackMode = components["schemas"]["PlaybackMode"];
export type ErrorBody = components["schemas"]["ErrorEnvelope"]["error"];

type Body<Path extends keyof paths> = paths[Path] extends {
  post: { requestBody: { content: { "application/json": infer Sent } } };
}
  ? Sent
  : never;

/** An answer: the success body, or the status and the error (undefined when the answer was not the envelope). */
export type Answer<T> = { ok: true; status: number; body: T } | { ok: false; status: number; error?: ErrorBody };

const api = createClient<paths>({ credentials: "same-origin" });

async function answerOf<T>(sent: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<Answer<T>> {
  const { data, error, response } = await sent;
  if (response.ok) return { ok: true, status: response.status, body: data as T };
  const envelope = typeof error === "object" && error !== null ? (error as { error?: ErrorBody }).error : undefined;
  return envelope === undefined
    ? { ok: false, status: response.status }
    : { ok: false, status: response.status, error: envelope };
}

export const exchangeLoginTicket = (body: Body<"/w/api/session">) =>
  answerOf(api.POST("/w/api/session", { body, keepalive: true }));

export const startPlayback = (body: Body<"/w/api/playback/start">) =>
  answerOf(api.POST("/w/api/playback/start", { body, keepalive: true }));

export const sendHeartbeat = (body: Body<"/w/api/playback/heartbeat">) =>
  answerOf(api.POST("/w/api/playback/heartbeat", { body, keepalive: true }));

export const stopPlayback = (body: Body<"/w/api/playback/stop">) =>
  answerOf(api.POST("/w/api/playback/stop", { body, keepalive: true }));

/** `GET /w/api/state` for the page's webinar. */
export const readState = (ticketCode: string) =>
  answerOf(api.GET("/w/api/state", { params: { query: { ticketCode } } }));
