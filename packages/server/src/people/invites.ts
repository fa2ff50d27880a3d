/**
 * Console invites: a one-use link, `<origin>/console/invite#token=<token>`, that expires, for a person of a merchant
 * to choose their password. The operator's `createConsoleUser` (admin API) makes a person (or finds the one of this
 * merchant with that email: a new invite resets a forgotten password); an OWNER's invitePerson (console, team.ts)
 * makes a new person only. Accepting it (`acceptInvite`) sets the person's password and gives them the invite's
 * role, and the console then signs them in; for a person who had a password this is the password reset, so their
 * other sessions end. Only the token's SHA-256 is stored. A removed person's invites stop working with the removal,
 * and their email can be invited again, as a new person.
 */
import type { ExpressionBuilder, Kysely, Transaction } from "kysely";
import { isUniqueViolation } from "../db/errors";
import type { ConsoleRole, Database } from "../db/schema";
import { ServiceError } from "../errors";
import { rfc3339 } from "../http/rfc3339";
import { recordAudit, type AuditActor } from "../merchants/audit-events";
import { randomBase62, type Runtime } from "../runtime";
import { hashToken, newToken } from "../tickets/token";
import { checkNewPassword } from "./password-policy";
import type { PasswordHasher } from "./passwords";
import { endEverySession } from "./sessions";

export interface InviteInput {
  email: string;
  role?: ConsoleRole;
}

export interface CreatedInvite {
  userId: string;
  inviteUrl: string;
  expiresAt: string;
}

export interface InviteSettings {
  db: Kysely<Database>;
  runtime: Runtime;
  ttlSeconds: number;
  /** The origin the invite link points at. */
  origin: string;
}

/** The unique index of the email among people not removed (migration 0022). */
const MEMBER_EMAIL_CONSTRAINT = "console_users_member_email_key";

const emailTaken = (where: "this" | "another") =>
  new ServiceError(
    "CONSOLE_EMAIL_TAKEN",
    where === "this"
      ? "this email belongs to a person of this merchant already"
      : "this email belongs to a console person of another merchant",
  );

/**
 * The person with this email in the merchant (unless `newOnly`), created when there is none; 409 for an email of a
 * person of another merchant (and, with `newOnly`, of this one). Removed people do not count.
 */
async function personFor(
  trx: Transaction<Database>,
  runtime: Runtime,
  merchantId: string,
  input: { email: string; role: ConsoleRole; newOnly: boolean },
): Promise<string> {
  const existing = await trx
    .selectFrom("console_users")
    .select(["id", "merchant_id"])
    .where((eb) => eb(eb.fn("lower", ["email"]), "=", input.email.toLowerCase()))
    .where("removed_at", "is", null)
    .forUpdate()
    .executeTakeFirst();
  if (existing !== undefined) {
    if (existing.merchant_id !== merchantId) throw emailTaken("another");
    if (input.newOnly) throw emailTaken("this");
    return existing.id;
  }
  const userId = `cu_${randomBase62(runtime, 20)}`;
  try {
    await trx
      .insertInto("console_users")
      .values({
        id: userId,
        merchant_id: merchantId,
        email: input.email,
        role: input.role,
        password_hash: null,
        language: null,
        created_at: new Date(runtime.now()),
      })
      .execute();
  } catch (error) {
    // Another invite of the same email committed between the look-up and this insert.
    if (isUniqueViolation(error, MEMBER_EMAIL_CONSTRAINT)) throw emailTaken("another");
    throw error;
  }
  return userId;
}

/** In the caller's transaction: a new invite token for the person; their earlier unused invites stop working. */
export async function newInviteToken(
  trx: Transaction<Database>,
  runtime: Runtime,
  ttlSeconds: number,
  userId: string,
  role: ConsoleRole,
): Promise<{ token: string; expiresAt: number }> {
  const { token, hash } = newToken("inv_", runtime);
  const now = runtime.now();
  const expiresAt = now + ttlSeconds * 1000;
  await voidInvites(trx, userId, now);
  await trx
    .insertInto("console_invites")
    .values({
      token_hash: hash,
      user_id: userId,
      role,
      created_at: new Date(now),
      expires_at: new Date(expiresAt),
      used_at: null,
    })
    .execute();
  return { token, expiresAt };
}

/** In the caller's transaction: the person's unused invites stop working (marked used now). */
export async function voidInvites(trx: Transaction<Database>, userId: string, nowMs: number): Promise<void> {
  await trx
    .updateTable("console_invites")
    .set({ used_at: new Date(nowMs) })
    .where("user_id", "=", userId)
    .where("used_at", "is", null)
    .execute();
}

/**
 * In the caller's transaction: the person (made when new; `newOnly`: 409 for any existing email) and a new invite
 * token, audited as PERSON_INVITED by `actor` (an OWNER, or the operator). The merchant must exist.
 */
export async function issueInvite(
  trx: Transaction<Database>,
  runtime: Runtime,
  ttlSeconds: number,
  actor: AuditActor,
  input: InviteInput & { newOnly?: boolean },
): Promise<{ userId: string; token: string; expiresAt: number }> {
  const role = input.role ?? "OWNER";
  const email = input.email.trim();
  const userId = await personFor(trx, runtime, actor.merchantId, { email, role, newOnly: input.newOnly ?? false });
  const { token, expiresAt } = await newInviteToken(trx, runtime, ttlSeconds, userId, role);
  await recordAudit(trx, actor, runtime.now(), { action: "PERSON_INVITED", target: email, details: { userId, role } });
  return { userId, token, expiresAt };
}

/** The link a person opens to accept an invite: the token rides in the fragment, never sent to a server by a browser. */
export function inviteUrl(origin: string, token: string): string {
  return `${origin}/console/invite#token=${token}`;
}

/** The answer of an invite: the person, their link and when it expires. */
export function createdInvite(origin: string, issued: { userId: string; token: string; expiresAt: number }) {
  return { userId: issued.userId, inviteUrl: inviteUrl(origin, issued.token), expiresAt: rfc3339(issued.expiresAt) };
}

/**
 * The admin API's createConsoleUser.
 *
 * @example
 * const { inviteUrl } = await createInvite(settings, merchantId, { email: "ana@example.com" });
 */
export async function createInvite(
  settings: InviteSettings,
  merchantId: string,
  input: InviteInput,
): Promise<CreatedInvite> {
  const { db, runtime } = settings;
  const merchant = await db.selectFrom("merchants").select("id").where("id", "=", merchantId).executeTakeFirst();
  if (merchant === undefined) throw new ServiceError("MERCHANT_NOT_FOUND", `no merchant ${merchantId}`);
  const issued = await db
    .transaction()
    .execute((trx) => issueInvite(trx, runtime, settings.ttlSeconds, { merchantId, userId: null }, input));
  return createdInvite(settings.origin, issued);
}

const INVITE_INVALID = () =>
  new ServiceError("CONSOLE_INVITE_INVALID", "this invite link is used, expired or unknown; ask for a new one");

/**
 * Uses the invite: sets the password and role and ends the person's sessions; the person's id, for the caller to
 * start a session. Every refusal leaves the invite usable: a password too short (the body's schema, before), a
 * common one, a suspended merchant.
 */
export async function acceptInvite(
  { db, runtime, passwords }: { db: Kysely<Database>; runtime: Runtime; passwords: PasswordHasher },
  token: string,
  password: string,
): Promise<string> {
  const tokenHash = hashToken(token);
  const usable = (now: Date) => (eb: ExpressionBuilder<Database, "console_invites">) =>
    eb.and([eb("token_hash", "=", tokenHash), eb("used_at", "is", null), eb("expires_at", ">", now)]);
  // An unknown or spent token is refused before the password is judged and hashed: that work is spent on real invites.
  const found = await db
    .selectFrom("console_invites as i")
    .innerJoin("console_users as u", "u.id", "i.user_id")
    .innerJoin("merchants as m", "m.id", "u.merchant_id")
    .select(["u.email", "m.status"])
    .where("i.token_hash", "=", tokenHash)
    .where("i.used_at", "is", null)
    .where("i.expires_at", ">", new Date(runtime.now()))
    .where("u.removed_at", "is", null)
    .executeTakeFirst();
  if (found === undefined) throw INVITE_INVALID();
  if (found.status === "SUSPENDED")
    throw new ServiceError("TENANT_SUSPENDED", "this merchant is suspended; the invite works once it is reactivated");
  checkNewPassword(password, [found.email]);
  const passwordHash = await passwords.hash(password);
  const now = new Date(runtime.now());
  return db.transaction().execute(async (trx) => {
    const invite = await trx
      .updateTable("console_invites")
      .set({ used_at: now })
      .where(usable(now))
      .returning(["user_id", "role"])
      .executeTakeFirst();
    if (invite === undefined) throw INVITE_INVALID();
    await trx
      .updateTable("console_users")
      .set({ password_hash: passwordHash, role: invite.role })
      .where("id", "=", invite.user_id)
      .execute();
    await endEverySession(trx, invite.user_id);
    return invite.user_id;
  });
}
