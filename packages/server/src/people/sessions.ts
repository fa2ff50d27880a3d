/**
 * Console sessions, kept in the database (so every process knows them and each one can be ended at once): a random
 * token for the cookie, its SHA-256 in `console_sessions`, and a public id to list and end it by. A session expires
 * after the idle time without a request, sliding forward with each request, and never lives past its absolute
 * limit, which the configuration keeps at least as long as the idle time. Each request's session is read anew from
 * the database, never from a cache, so a session ended by sign-out, by its person, by removal or by a password
 * reset answers 401 from its very next request. What a request changes (the expiry, when and where it was last
 * used) is written at most once a minute, so reading pages costs no write each time. Where the token travels (the
 * console's cookie) is the console's business, not this module's.
 */
import type { Kysely } from "kysely";
import type { ConsoleLanguage, ConsoleRole, Database } from "../db/schema";
import { ServiceError } from "../errors";
import { rfc3339 } from "../http/rfc3339";
import { randomBase62, type Runtime } from "../runtime";
import { hashToken, newToken } from "../tickets/token";

/** The last-seen time (and with it the sliding expiry and the address) is written once it lags by more than this. */
const SEEN_GRANULARITY_MS = 60_000;

/**
 * How long after the password was entered (sign-in, accepting an invite, confirmPassword) a session may make the
 * changes that hand out access; later the console asks for the password again.
 */
export const RECENT_PASSWORD_SECONDS = 10 * 60;

/** Where sessions are kept, the clock, and how long a session lives. */
export interface SessionSettings {
  db: Kysely<Database>;
  runtime: Runtime;
  /** A session ends after this many seconds without a request. */
  idleSeconds: number;
  /** A session ends this many seconds after it started, however busy. */
  maxSeconds: number;
}

/** Where a request comes from: a coarse name of its device and its client address. */
export interface SessionOrigin {
  device: string;
  address: string;
}

/** The signed-in person of a session, and what the console checks of it before each operation. */
export interface SignedInPerson {
  userId: string;
  email: string;
  role: ConsoleRole;
  language: ConsoleLanguage | null;
  merchantId: string;
  merchantName: string;
  /** Whether the person's merchant is suspended (then the console refuses everything but signing out). */
  merchantSuspended: boolean;
  /** Whether the person signs in with two steps. */
  twoFactorEnabled: boolean;
  /** Whether the merchant requires two-step sign-in of every person. */
  twoFactorRequired: boolean;
  /** The hash of this session's token (sign out ends this one). */
  sessionHash: string;
  /** The public id of this session. */
  sessionId: string;
  /** When the person last entered their password in this session (epoch ms). */
  passwordEnteredAt: number;
}

/** Starts a session for `userId` (who just entered their password): its token, and how long a cookie should keep it. */
export async function startSession(
  settings: SessionSettings,
  userId: string,
  origin: SessionOrigin,
): Promise<{ token: string; hash: string; maxAgeSeconds: number }> {
  const { db, runtime, idleSeconds, maxSeconds } = settings;
  const { token, hash } = newToken("cs_", runtime);
  const now = new Date(runtime.now());
  const lifetimeSeconds = Math.min(idleSeconds, maxSeconds);
  await db
    .insertInto("console_sessions")
    .values({
      token_hash: hash,
      session_id: `ses_${randomBase62(runtime, 20)}`,
      user_id: userId,
      created_at: now,
      last_seen_at: now,
      password_entered_at: now,
      expires_at: new Date(now.getTime() + lifetimeSeconds * 1000),
      absolute_expires_at: new Date(now.getTime() + maxSeconds * 1000),
      device: origin.device,
      address: origin.address,
    })
    .execute();
  return { token, hash, maxAgeSeconds: lifetimeSeconds };
}

/**
 * The signed-in person of a valid session token, sliding its expiry; `slidMaxAgeSeconds` says for how long a
 * cookie should now keep the token when the expiry was slid. Undefined without a valid session.
 */
export async function findSession(
  settings: SessionSettings,
  token: string,
  origin: SessionOrigin,
): Promise<{ person: SignedInPerson; slidMaxAgeSeconds: number | undefined } | undefined> {
  const { db, runtime, idleSeconds } = settings;
  const hash = hashToken(token);
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
      "u.totp_secret_sealed",
      "m.name",
      "m.status",
      "m.console_two_factor_required",
      "s.session_id",
      "s.expires_at",
      "s.absolute_expires_at",
      "s.last_seen_at",
      "s.password_entered_at",
    ])
    .where("s.token_hash", "=", hash)
    .where("s.expires_at", ">", new Date(now))
    .where("s.absolute_expires_at", ">", new Date(now))
    .where("u.removed_at", "is", null)
    .executeTakeFirst();
  if (row === undefined) return undefined;
  let slidMaxAgeSeconds: number | undefined;
  if (now - new Date(row.last_seen_at).getTime() > SEEN_GRANULARITY_MS) {
    const slid = Math.min(now + idleSeconds * 1000, new Date(row.absolute_expires_at).getTime());
    await db
      .updateTable("console_sessions")
      .set({ expires_at: new Date(slid), last_seen_at: new Date(now), address: origin.address })
      .where("token_hash", "=", hash)
      .execute();
    slidMaxAgeSeconds = Math.round((slid - now) / 1000);
  }
  const person: SignedInPerson = {
    userId: row.id,
    email: row.email,
    role: row.role as ConsoleRole,
    language: row.language,
    merchantId: row.merchant_id,
    merchantName: row.name,
    merchantSuspended: row.status === "SUSPENDED",
    twoFactorEnabled: row.totp_secret_sealed !== null,
    twoFactorRequired: row.console_two_factor_required,
    sessionHash: hash,
    sessionId: row.session_id,
    passwordEnteredAt: new Date(row.password_entered_at).getTime(),
  };
  return { person, slidMaxAgeSeconds };
}

/** Until when (epoch ms) the session may make changes that hand out access without the password again. */
export function recentSignInUntil(person: Pick<SignedInPerson, "passwordEnteredAt">): number {
  return person.passwordEnteredAt + RECENT_PASSWORD_SECONDS * 1000;
}

/** Throws 403 CONSOLE_REAUTHENTICATION_REQUIRED when the password was entered too long ago in this session. */
export function requireRecentPassword(person: Pick<SignedInPerson, "passwordEnteredAt">, nowMs: number): void {
  if (nowMs < recentSignInUntil(person)) return;
  throw new ServiceError(
    "CONSOLE_REAUTHENTICATION_REQUIRED",
    "enter your password again to make this change (confirmPassword)",
  );
}

/** Notes that the person entered their password again in this session (confirmPassword). */
export async function notePasswordEntered(db: Kysely<Database>, sessionHash: string, nowMs: number): Promise<void> {
  await db
    .updateTable("console_sessions")
    .set({ password_entered_at: new Date(nowMs) })
    .where("token_hash", "=", sessionHash)
    .execute();
}

/** The person's sessions that have not ended, the most recently used first; `current` is the request's own. */
export async function listSessions(db: Kysely<Database>, person: SignedInPerson, nowMs: number) {
  const rows = await db
    .selectFrom("console_sessions")
    .select(["session_id", "token_hash", "device", "address", "created_at", "last_seen_at", "expires_at"])
    .where("user_id", "=", person.userId)
    .where("expires_at", ">", new Date(nowMs))
    .where("absolute_expires_at", ">", new Date(nowMs))
    .orderBy("last_seen_at", "desc")
    .orderBy("session_id")
    .execute();
  const minute = (date: Date | string) => rfc3339(Math.floor(new Date(date).getTime() / 60_000) * 60_000);
  return rows.map((row) => ({
    sessionId: row.session_id,
    current: row.token_hash === person.sessionHash,
    device: row.device,
    address: row.address,
    signedInAt: rfc3339(new Date(row.created_at).getTime()),
    lastSeenAt: minute(row.last_seen_at),
    expiresAt: rfc3339(new Date(row.expires_at).getTime()),
  }));
}

/** Ends one session of the person by its public id: whether there was one, and whether it was the request's own. */
export async function endSessionById(
  db: Kysely<Database>,
  person: SignedInPerson,
  sessionId: string,
): Promise<{ ended: boolean; current: boolean }> {
  const ended = await db
    .deleteFrom("console_sessions")
    .where("user_id", "=", person.userId)
    .where("session_id", "=", sessionId)
    .returning("token_hash")
    .executeTakeFirst();
  return { ended: ended !== undefined, current: ended?.token_hash === person.sessionHash };
}

/** Ends the session of `token`; the number of sessions ended. */
export async function endSession(db: Kysely<Database>, token: string): Promise<number> {
  const result = await db.deleteFrom("console_sessions").where("token_hash", "=", hashToken(token)).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Ends every session of a person; the number ended. */
export async function endEverySession(db: Kysely<Database>, userId: string): Promise<number> {
  const result = await db.deleteFrom("console_sessions").where("user_id", "=", userId).executeTakeFirst();
  return Number(result.numDeletedRows);
}
