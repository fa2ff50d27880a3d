/**
 * Who is watching, for the playback API (watch-openapi.yaml, security schemes `WatchSession` and
 * `AnonymousSubject`): the registered viewer of the watch session (cookie `webinar_session` of the ticket
 * exchange), or, without one, a system anonymous subject kept in the cookie `webinar_anon`, made by its first
 * playback start for the webinar that start names by `ticketCode`.
 */
import type { Kysely } from "kysely";
import type { Database } from "../db/schema";
import { ServiceError } from "../errors";
import { randomBase62, type Runtime } from "../runtime";
import { cookieValue } from "../http/cookies";
import type { WatchSubject } from "../watch-data/watch-subject";
import { ANON_COOKIE, SESSION_COOKIE } from "./cookies";
import type { WatchSessions } from "./watch-sessions";

export interface SubjectDeps {
  db: Kysely<Database>;
  runtime: Runtime;
  sessions: WatchSessions;
}

/** The shape of the anonymous ids this server makes; another cookie value names no subject. */
const ANONYMOUS_ID_SHAPE = /^[A-Za-z0-9_-]{8,128}$/;

export function playbackUnauthorized(): ServiceError {
  return new ServiceError(
    "PLAYBACK_UNAUTHORIZED",
    "no watch session (exchange a login ticket first) or anonymous subject",
  );
}

/** The registered viewer of an unexpired watch session token, or undefined. */
async function sessionSubject(deps: SubjectDeps, token: string | undefined): Promise<WatchSubject | undefined> {
  if (token === undefined || token === "") return undefined;
  const session = await deps.sessions.find(token);
  if (session === undefined) return undefined;
  return { webinarId: session.webinarId, merchantId: session.merchantId, uid: session.uid, anonymousId: null };
}

/**
 * The subject of a request: the watch session, else the anonymous cookie (with the webinar of `ticketCode`), else,
 * when `createAnonymous` (a start), a new anonymous subject, returned as `newAnonymousId` to set as a cookie.
 */
export async function resolveWatchSubject(
  deps: SubjectDeps,
  cookies: string | undefined,
  ticketCode: string | undefined,
  createAnonymous: boolean,
): Promise<{ subject: WatchSubject; newAnonymousId?: string }> {
  const registered = await sessionSubject(deps, cookieValue(cookies, SESSION_COOKIE));
  if (registered !== undefined) return { subject: registered };
  let anonymousId = cookieValue(cookies, ANON_COOKIE);
  if (anonymousId !== undefined && !ANONYMOUS_ID_SHAPE.test(anonymousId)) anonymousId = undefined;
  if (anonymousId === undefined && !createAnonymous) throw playbackUnauthorized();
  // A heartbeat or stop of an anonymous subject: its playback session names the webinar.
  if (anonymousId !== undefined && !createAnonymous && ticketCode === undefined) {
    return { subject: { webinarId: null, merchantId: null, uid: null, anonymousId } };
  }
  if (ticketCode === undefined) throw playbackUnauthorized();
  const webinar = await deps.db
    .selectFrom("webinars")
    .select(["id", "merchant_id"])
    .where("ticket_code", "=", ticketCode)
    .executeTakeFirst();
  if (webinar === undefined) throw new ServiceError("WEBINAR_NOT_FOUND", "no webinar with this ticketCode");
  const made = anonymousId === undefined ? `anon_${randomBase62(deps.runtime, 24)}` : undefined;
  return {
    subject: { webinarId: webinar.id, merchantId: webinar.merchant_id, uid: null, anonymousId: anonymousId ?? made! },
    ...(made === undefined ? {} : { newAnonymousId: made }),
  };
}
