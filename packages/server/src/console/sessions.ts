/**
 * The console request's session: its token rides in the console's cookie (session-cookie.ts), its record is kept
 * by people/sessions.ts. Starting, sliding and ending a session set the cookie on the answer.
 */
import type { AppServices } from "../services";
import {
  endSession as endStoredSession,
  findSession,
  type SessionSettings,
  startSession as startStoredSession,
} from "../people/sessions";
import type { ConsolePerson, ConsoleRequest } from "./context";
import { clearedSessionCookie, sessionCookie } from "./session-cookie";

function sessionSettings(services: AppServices): SessionSettings {
  return {
    db: services.db,
    runtime: services.runtime,
    idleSeconds: services.config.consoleSessionIdleSeconds,
    maxSeconds: services.config.consoleSessionMaxSeconds,
  };
}

/** Starts a session for `userId` (who just entered their password) and sets its cookie on the answer. */
export async function startSession(request: ConsoleRequest, userId: string): Promise<string> {
  const { token, hash, maxAgeSeconds } = await startStoredSession(sessionSettings(request.services), userId, {
    device: request.device,
    address: request.clientAddress,
  });
  request.answerHeaders.append("Set-Cookie", sessionCookie(token, maxAgeSeconds, request.secure));
  return hash;
}

/** The signed-in person of the request's session, sliding its expiry (and its cookie); undefined without one. */
export async function findSessionPerson(request: ConsoleRequest): Promise<ConsolePerson | undefined> {
  const token = request.sessionToken;
  if (token === undefined || token === "") return undefined;
  const found = await findSession(sessionSettings(request.services), token, {
    device: request.device,
    address: request.clientAddress,
  });
  if (found === undefined) return undefined;
  if (found.slidMaxAgeSeconds !== undefined)
    request.answerHeaders.append("Set-Cookie", sessionCookie(token, found.slidMaxAgeSeconds, request.secure));
  return found.person;
}

/** Ends the request's session (if any) and clears the cookie; the number of sessions ended. */
export async function endSession(request: ConsoleRequest): Promise<number> {
  clearSessionCookie(request);
  if (request.sessionToken === undefined || request.sessionToken === "") return 0;
  return endStoredSession(request.services.db, request.sessionToken);
}

/** Clears the cookie on the answer, in place of a slid one the request may have set before its session ended. */
export function clearSessionCookie(request: ConsoleRequest): void {
  request.answerHeaders.delete("Set-Cookie");
  request.answerHeaders.append("Set-Cookie", clearedSessionCookie(request.secure));
}
