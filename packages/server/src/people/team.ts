/**
 * A merchant's team, as its OWNERs run it in the console and the operator through the admin API: who is in it,
 * inviting a new person, a new link for one who has not accepted, another role, and removal. A removed person stays
 * in the table, marked (the audit list keeps naming them), with every session of theirs ended, their open invites
 * voided and their two-step sign-in cleared, all in the transaction that removes them, with its audit event.
 *
 * The merchant always keeps an OWNER who has accepted an invite: a change that would leave it without one is
 * refused with 409 CONSOLE_LAST_OWNER. Every change first locks all of the merchant's people (in id order), so two
 * OWNERs demoting or removing each other at the same moment are serialised, and the second sees the first's change:
 * the rule holds under concurrency, and so does the acting OWNER's own standing (an OWNER removed or demoted a
 * moment before cannot act). Only the operator may remove the last OWNER: the way back for a merchant that lost
 * its OWNERs is the operator's removal and invite (docs/operations.md).
 */
import type { Kysely, Transaction } from "kysely";
import type { ConsoleRole, Database } from "../db/schema";
import { ServiceError } from "../errors";
import { rfc3339 } from "../http/rfc3339";
import { recordAudit, type AuditActor } from "../merchants/audit-events";
import type { Runtime } from "../runtime";
import { createdInvite, issueInvite, newInviteToken, voidInvites } from "./invites";
import { endEverySession } from "./sessions";
import { clearTwoFactor } from "./two-factor";

/** What team changes need: the database, the clock and randomness, and how long an invite link lasts. */
export interface TeamContext {
  db: Kysely<Database>;
  runtime: Runtime;
  inviteTtlSeconds: number;
  /** The origin invite links point at. */
  origin: string;
}

interface Member {
  id: string;
  email: string;
  role: ConsoleRole;
  /** Has accepted an invite (has a password). */
  active: boolean;
}

const personNotFound = () => new ServiceError("CONSOLE_PERSON_NOT_FOUND", "no such person in this merchant");

/** Every person of the merchant, locked for the rest of `trx`, in id order (so concurrent changes never deadlock). */
async function lockTeam(trx: Transaction<Database>, merchantId: string): Promise<Member[]> {
  const rows = await trx
    .selectFrom("console_users")
    .select(["id", "email", "role", "password_hash"])
    .where("merchant_id", "=", merchantId)
    .where("removed_at", "is", null)
    .orderBy("id")
    .forUpdate()
    .execute();
  return rows.map((row) => ({ id: row.id, email: row.email, role: row.role, active: row.password_hash !== null }));
}

/** Throws unless the acting person is still an OWNER of the merchant (the operator always may). */
function checkActor(team: readonly Member[], actor: AuditActor): void {
  if (actor.userId === null) return;
  const member = team.find((person) => person.id === actor.userId);
  if (member === undefined) throw new ServiceError("CONSOLE_UNAUTHORIZED", "sign in to use the console");
  if (member.role !== "OWNER")
    throw new ServiceError("CONSOLE_FORBIDDEN", "an ANALYST reads only; ask an OWNER to make this change");
}

/** Throws 409 when `target` is the merchant's last active OWNER. */
function keepAnOwner(team: readonly Member[], target: Member, change: string): void {
  if (target.role !== "OWNER" || !target.active) return;
  if (team.some((person) => person.id !== target.id && person.role === "OWNER" && person.active)) return;
  throw new ServiceError(
    "CONSOLE_LAST_OWNER",
    `${change} would leave the merchant without an OWNER; make another person OWNER first`,
  );
}

/** The merchant's people (not removed), by email, and whether it requires two-step sign-in. */
export async function listPeople(db: Kysely<Database>, merchantId: string) {
  const [rows, merchant] = await Promise.all([
    db
      .selectFrom("console_users as u")
      .select((eb) => [
        "u.id",
        "u.email",
        "u.role",
        "u.password_hash",
        "u.totp_secret_sealed",
        "u.created_at",
        eb
          .selectFrom("console_invites as i")
          .select((inner) => inner.fn.max("i.expires_at").as("expires_at"))
          .whereRef("i.user_id", "=", "u.id")
          .where("i.used_at", "is", null)
          .as("invite_expires_at"),
      ])
      .where("u.merchant_id", "=", merchantId)
      .where("u.removed_at", "is", null)
      .orderBy((eb) => eb.fn("lower", ["u.email"]))
      .execute(),
    db.selectFrom("merchants").select("console_two_factor_required").where("id", "=", merchantId).executeTakeFirst(),
  ]);
  const items = rows.map((row) => {
    const active = row.password_hash !== null;
    const inviteExpiresAt = row.invite_expires_at as Date | string | null;
    return {
      userId: row.id,
      email: row.email,
      role: row.role,
      status: active ? ("ACTIVE" as const) : ("INVITED" as const),
      twoFactor: row.totp_secret_sealed !== null,
      invitedAt: rfc3339(new Date(row.created_at).getTime()),
      inviteExpiresAt: active || inviteExpiresAt === null ? null : rfc3339(new Date(inviteExpiresAt).getTime()),
    };
  });
  return { items, twoFactorRequired: merchant?.console_two_factor_required ?? false };
}

/** One person of the merchant as listPeople shows them. */
async function describeMember(db: Kysely<Database>, merchantId: string, userId: string) {
  const { items } = await listPeople(db, merchantId);
  const person = items.find((item) => item.userId === userId);
  if (person === undefined) throw personNotFound();
  return person;
}

/** invitePerson: a new person of the merchant and their invite link (409 for an email of any person). */
export async function invitePerson(ctx: TeamContext, actor: AuditActor, input: { email: string; role: ConsoleRole }) {
  const issued = await ctx.db.transaction().execute(async (trx) => {
    checkActor(await lockTeam(trx, actor.merchantId), actor);
    return issueInvite(trx, ctx.runtime, ctx.inviteTtlSeconds, actor, { ...input, newOnly: true });
  });
  return createdInvite(ctx.origin, issued);
}

/** renewInvite: a new link for a person who has not accepted; their earlier links stop working. */
export async function renewInvite(ctx: TeamContext, actor: AuditActor, userId: string) {
  const issued = await ctx.db.transaction().execute(async (trx) => {
    const team = await lockTeam(trx, actor.merchantId);
    checkActor(team, actor);
    const target = team.find((person) => person.id === userId);
    if (target === undefined) throw personNotFound();
    if (target.active)
      throw new ServiceError(
        "CONSOLE_PERSON_ACTIVE",
        "this person has accepted their invite; a forgotten password is reset by the operator's invite",
      );
    const { token, expiresAt } = await newInviteToken(trx, ctx.runtime, ctx.inviteTtlSeconds, userId, target.role);
    await recordAudit(trx, actor, ctx.runtime.now(), {
      action: "PERSON_INVITED",
      target: target.email,
      details: { userId, role: target.role, renewed: true },
    });
    return { userId, token, expiresAt };
  });
  return createdInvite(ctx.origin, issued);
}

/** changePersonRole: the person with their new role (409 for the last active OWNER's demotion). */
export async function changePersonRole(ctx: TeamContext, actor: AuditActor, userId: string, role: ConsoleRole) {
  await ctx.db.transaction().execute(async (trx) => {
    const team = await lockTeam(trx, actor.merchantId);
    checkActor(team, actor);
    const target = team.find((person) => person.id === userId);
    if (target === undefined) throw personNotFound();
    if (target.role === role) return;
    if (role !== "OWNER") keepAnOwner(team, target, "this change");
    await trx.updateTable("console_users").set({ role }).where("id", "=", userId).execute();
    // An invited person gets the new role when they accept: their open invite carries it.
    await trx
      .updateTable("console_invites")
      .set({ role })
      .where("user_id", "=", userId)
      .where("used_at", "is", null)
      .execute();
    await recordAudit(trx, actor, ctx.runtime.now(), {
      action: "PERSON_ROLE_CHANGED",
      target: target.email,
      details: { userId, from: target.role, to: role },
    });
  });
  return { person: await describeMember(ctx.db, actor.merchantId, userId) };
}

/**
 * Removes a person: their sessions end, their open invites stop working, their two-step sign-in goes, all with the
 * audit event in one transaction. An OWNER may not remove the last active OWNER (409); the operator may
 * (`mayRemoveLastOwner`). The number of sessions ended.
 */
export async function removePerson(
  ctx: Pick<TeamContext, "db" | "runtime">,
  actor: AuditActor,
  userId: string,
  { mayRemoveLastOwner = false }: { mayRemoveLastOwner?: boolean } = {},
): Promise<{ userId: string; sessionsEnded: number }> {
  const now = ctx.runtime.now();
  return ctx.db.transaction().execute(async (trx) => {
    const team = await lockTeam(trx, actor.merchantId);
    checkActor(team, actor);
    const target = team.find((person) => person.id === userId);
    if (target === undefined) throw personNotFound();
    if (!mayRemoveLastOwner) keepAnOwner(team, target, "removing this person");
    await trx
      .updateTable("console_users")
      .set({ removed_at: new Date(now) })
      .where("id", "=", userId)
      .execute();
    const sessionsEnded = await endEverySession(trx, userId);
    await voidInvites(trx, userId, now);
    await clearTwoFactor(trx, userId);
    await recordAudit(trx, actor, now, {
      action: "PERSON_REMOVED",
      target: target.email,
      details: { userId, role: target.role, sessionsEnded },
    });
    return { userId, sessionsEnded };
  });
}

/** The merchant's people for the operator (admin listConsoleUsers), or 404 for an unknown merchant. */
export async function listConsoleUsers(db: Kysely<Database>, merchantId: string) {
  const merchant = await db.selectFrom("merchants").select("id").where("id", "=", merchantId).executeTakeFirst();
  if (merchant === undefined) throw new ServiceError("MERCHANT_NOT_FOUND", `no merchant ${merchantId}`);
  const { items } = await listPeople(db, merchantId);
  return { items };
}

/**
 * The operator's removal (admin removeConsoleUser): the last OWNER too. Removing a person already removed answers
 * the same again, with no session to end; a person of another merchant is 404.
 */
export async function removeConsoleUser(
  ctx: Pick<TeamContext, "db" | "runtime">,
  merchantId: string,
  userId: string,
): Promise<{ userId: string; status: "REMOVED"; sessionsEnded: number }> {
  const person = await ctx.db
    .selectFrom("console_users")
    .select("removed_at")
    .where("id", "=", userId)
    .where("merchant_id", "=", merchantId)
    .executeTakeFirst();
  if (person === undefined) {
    const merchant = await ctx.db.selectFrom("merchants").select("id").where("id", "=", merchantId).executeTakeFirst();
    if (merchant === undefined) throw new ServiceError("MERCHANT_NOT_FOUND", `no merchant ${merchantId}`);
    throw personNotFound();
  }
  if (person.removed_at !== null) return { userId, status: "REMOVED", sessionsEnded: 0 };
  const removed = await removePerson(ctx, { merchantId, userId: null }, userId, { mayRemoveLastOwner: true });
  return { ...removed, status: "REMOVED" };
}
