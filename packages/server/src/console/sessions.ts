/**
 * Console sessions, kept in the database (so every process knows them and each one can be ended): a random token
 * in the cookie, its SHA-256 in `console_sessions`. A session expires after the idle time without a request,
 * sliding forward with each request (written at most once a minute, so reading pages costs no write each time),
 * and never lives past its absolute limit. Signing out deletes the row; signing out everywhere deletes every row
 * of the person.
 */
import type { Kysely } from "kysely";
import type { ConsoleRole, Database } from "../db/schema";
import { hashToken, newToken } from "../tickets/token";
import type { ConsolePerson, ConsoleRequest } from "./context";
import { clearedSessionCookie, sessionCookie } from "./session-cookie";

/** A slide is written once the stored expiry lags the new one by more than this. */
const SLIDE_GRANULARITY_MS = 60_000;

/** Starts a session for `userId` and sets its cookie on the answer. */
export async function startSession(request: ConsoleRequest, userId: string): Promise<string> {
  const { db, runtime, config } = request.services;
  const { token, hash } = newToken("cs_", runtime);
  const now = runtime.now();
  await db
    .insertInto("console_sessions")
    .values({
      token_hash: hash,
      user_id: userId,
      created_at: new Date(now),
      expires_at: new Date(now + config.consoleSessionIdleSeconds * 1000),
      absolute_expires_at: new Date(now + config.consoleSessionMaxSeconds * 1000),
    })
    .execute();
  request.answerHeaders.append(
    "Set-Cookie",
    sessionCookie(token, Math.min(config.consoleSessionIdleSeconds, config.consoleSessionMaxSeconds), request.secure),
  );
  return hash;
}

/** The signed-in person of the request's session, sliding its expiry; undefined without a valid session. */
export async function findSessionPerson(request: ConsoleRequest): Promise<ConsolePerson | undefined> {
  if (request.sessionToken === undefined || request.sessionToken === "") return undefined;
  const { db, runtime, config } = request.services;
  const hash = hashToken(request.sessionToken);
  const now = runtime.now();
  const row = await db
    .selectFrom("console_sessions as s")
    .innerJoin("console_users as u", "u.id", "s.user_id")
    .innerJoin("merchants as m", "m.id", "u.merchant_id")
    .select([
      "u.id",
      "u.email",
      "u.role",
      "u.language",
      "u.merchant_id",
      "m.name",
      "s.expires_at",
      "s.absolute_expires_at",
    ])
    .where("s.token_hash", "=", hash)
    .where("s.expires_at", ">", new Date(now))
    .executeTakeFirst();
  if (row === undefined) return undefined;
  const slid = Math.min(now + config.consoleSessionIdleSeconds * 1000, new Date(row.absolute_expires_at).getTime());
  if (slid - new Date(row.expires_at).getTime() > SLIDE_GRANULARITY_MS) {
    await db
      .updateTable("console_sessions")
      .set({ expires_at: new Date(slid) })
      .where("token_hash", "=", hash)
      .execute();
    request.answerHeaders.append(
      "Set-Cookie",
      sessionCookie(request.sessionToken, Math.round((slid - now) / 1000), request.secure),
    );
  }
  return {
    userId: row.id,
    email: row.email,
    role: row.role as ConsoleRole,
    language: row.language,
    merchantId: row.merchant_id,
    merchantName: row.name,
    sessionHash: hash,
  };
}

/** Ends the request's session (if any) and clears the cookie; the number of sessions ended. */
export async function endSession(request: ConsoleRequest): Promise<number> {
  request.answerHeaders.append("Set-Cookie", clearedSessionCookie(request.secure));
  if (request.sessionToken === undefined || request.sessionToken === "") return 0;
  const result = await request.services.db
    .deleteFrom("console_sessions")
    .where("token_hash", "=", hashToken(request.sessionToken))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Ends every session of a person; the number ended. */
export async function endEverySession(db: Kysely<Database>, userId: string): Promise<number> {
  const result = await db.deleteFrom("console_sessions").where("user_id", "=", userId).executeTakeFirst();
  return Number(result.numDeletedRows);
}
