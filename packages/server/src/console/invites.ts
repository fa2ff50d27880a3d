/**
 * Console invites: the operator's `createConsoleUser` (admin API) makes a person of a merchant (or finds the one
 * with that email) and a one-use invite link, `<origin>/console/invite#token=<token>`, that expires. Accepting it
 * (`acceptInvite`) sets the person's password, gives them the invite's role and signs them in; for a person who
 * had a password this is the password reset, so their other sessions end. Only the token's SHA-256 is stored.
 */
import type { ExpressionBuilder, Kysely, Transaction } from "kysely";
import type { ConsoleRole, Database } from "../db/schema";
import { ServiceError } from "../errors";
import { randomBase62, type Runtime } from "../runtime";
import { rfc3339 } from "../tickets/issue";
import { hashToken, newToken } from "../tickets/token";
import type { ConsoleRequest } from "./context";
import { hashPassword } from "./passwords";
import { endEverySession, startSession } from "./sessions";

export interface InviteInput {
  email: string;
  role?: ConsoleRole;
}

export interface CreatedInvite {
  userId: string;
  inviteUrl: string;
  expiresAt: string;
}

interface InviteSettings {
  db: Kysely<Database>;
  runtime: Runtime;
  ttlSeconds: number;
  /** The origin the invite link points at. */
  origin: string;
}

/** The person with this email in the merchant, created when new; 409 for an email of another merchant's person. */
async function personFor(
  trx: Transaction<Database>,
  merchantId: string,
  email: string,
  role: ConsoleRole,
  runtime: Runtime,
): Promise<string> {
  const existing = await trx
    .selectFrom("console_users")
    .select(["id", "merchant_id"])
    .where((eb) => eb(eb.fn("lower", ["email"]), "=", email.toLowerCase()))
    .forUpdate()
    .executeTakeFirst();
  if (existing !== undefined) {
    if (existing.merchant_id !== merchantId)
      throw new ServiceError("CONSOLE_EMAIL_TAKEN", "this email belongs to a console user of another merchant");
    return existing.id;
  }
  const userId = `cu_${randomBase62(runtime, 20)}`;
  await trx
    .insertInto("console_users")
    .values({
      id: userId,
      merchant_id: merchantId,
      email,
      role,
      password_hash: null,
      language: null,
      created_at: new Date(runtime.now()),
    })
    .execute();
  return userId;
}

/**
 * In the caller's transaction: the person (made when new) and a new invite token; their earlier unused invites
 * stop working. The merchant must exist.
 */
export async function issueInvite(
  trx: Transaction<Database>,
  runtime: Runtime,
  ttlSeconds: number,
  merchantId: string,
  input: InviteInput,
): Promise<{ userId: string; token: string; expiresAt: number }> {
  const role = input.role ?? "OWNER";
  const { token, hash } = newToken("inv_", runtime);
  const now = runtime.now();
  const expiresAt = now + ttlSeconds * 1000;
  const userId = await personFor(trx, merchantId, input.email.trim(), role, runtime);
  await trx
    .updateTable("console_invites")
    .set({ used_at: new Date(now) })
    .where("user_id", "=", userId)
    .where("used_at", "is", null)
    .execute();
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
  return { userId, token, expiresAt };
}

/** The link a person opens to accept an invite: the token rides in the fragment, never sent to a server by a browser. */
export function inviteUrl(origin: string, token: string): string {
  return `${origin}/console/invite#token=${token}`;
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
    .execute((trx) => issueInvite(trx, runtime, settings.ttlSeconds, merchantId, input));
  return {
    userId: issued.userId,
    inviteUrl: inviteUrl(settings.origin, issued.token),
    expiresAt: rfc3339(issued.expiresAt),
  };
}

const INVITE_INVALID = () =>
  new ServiceError("CONSOLE_INVITE_INVALID", "this invite link is used, expired or unknown; ask for a new one");

/**
 * Uses the invite: sets the password and role, ends the person's other sessions and starts one. The password's
 * length was checked by the body's schema before, so a weak password never uses up the invite.
 */
export async function acceptInvite(request: ConsoleRequest, token: string, password: string): Promise<string> {
  const { db, runtime } = request.services;
  const tokenHash = hashToken(token);
  const usable = (now: Date) => (eb: ExpressionBuilder<Database, "console_invites">) =>
    eb.and([eb("token_hash", "=", tokenHash), eb("used_at", "is", null), eb("expires_at", ">", now)]);
  // An unknown or spent token is refused before the password is hashed: scrypt's memory is spent on real invites only.
  const found = await db
    .selectFrom("console_invites")
    .select("user_id")
    .where(usable(new Date(runtime.now())))
    .executeTakeFirst();
  if (found === undefined) throw INVITE_INVALID();
  const passwordHash = await hashPassword(password, runtime);
  const now = new Date(runtime.now());
  const userId = await db.transaction().execute(async (trx) => {
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
  await startSession(request, userId);
  return userId;
}
