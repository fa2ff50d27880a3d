/**
 * A person's two-step sign-in: enrolling (a new TOTP secret, shown once as a QR code, its URL and its text, kept
 * pending until a code of it comes back), turning it off, recovery codes, checking a code at sign-in, and the
 * merchant's requirement of it for everyone. Secrets are sealed with the server's key (keys/secret-box.ts), bound to
 * their person, so a database leak alone yields no secret. A code is accepted once: its time step must be later than
 * the last one accepted for the person, compared and written in one statement, so neither a replay nor two
 * sign-ins racing with one code get in twice.
 */
import type { Kysely, Transaction } from "kysely";
import type { Database } from "../db/schema";
import { ServiceError } from "../errors";
import type { SecretBox } from "../keys/secret-box";
import type { Runtime } from "../runtime";
import { recordAudit, type AuditActor } from "../merchants/audit-events";
import { isRecoveryCode, replaceRecoveryCodes, useRecoveryCode } from "./recovery-codes";
import { newTotpSecret, qrCodeDataUrl, totpStep, totpUrl } from "./totp";

/** What two-step sign-in needs: the database, the clock and randomness, and the box that seals secrets. */
export interface TwoFactorContext {
  db: Kysely<Database>;
  runtime: Runtime;
  secretBox: SecretBox;
}

/** The person acting on their own two-step sign-in. */
type Self = AuditActor & { userId: string; email: string };

/** The sealed secret's associated data: a secret copied onto another person's row does not open. */
const sealedFor = (userId: string) => `console totp ${userId}`;

/** Starts (or starts again) an enrollment: the new secret, its `otpauth://` URL and its QR code. */
export async function startEnrollment(ctx: TwoFactorContext, person: { userId: string; email: string }) {
  const secret = newTotpSecret(ctx.runtime);
  await ctx.db
    .updateTable("console_users")
    .set({ totp_pending_secret_sealed: ctx.secretBox.seal(secret, sealedFor(person.userId)) })
    .where("id", "=", person.userId)
    .execute();
  const otpauthUrl = totpUrl(secret, person.email);
  return { secret, otpauthUrl, qrCode: await qrCodeDataUrl(otpauthUrl) };
}

/**
 * Turns two-step sign-in on with a code of the pending secret: the new recovery codes, to show once. The pending
 * secret becomes the one in use (replacing an earlier device), in one transaction with the codes and the audit event.
 */
export async function confirmEnrollment(ctx: TwoFactorContext, actor: Self, code: string): Promise<string[]> {
  const now = ctx.runtime.now();
  return ctx.db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom("console_users")
      .select("totp_pending_secret_sealed")
      .where("id", "=", actor.userId)
      .forUpdate()
      .executeTakeFirstOrThrow();
    const sealed = row.totp_pending_secret_sealed;
    if (sealed === null)
      throw new ServiceError("CONSOLE_TWO_FACTOR_NOT_STARTED", "start the enrollment first (startTwoFactorEnrollment)");
    const step = totpStep(ctx.secretBox.open(sealed, sealedFor(actor.userId)), code, now);
    if (step === undefined)
      throw new ServiceError(
        "CONSOLE_TWO_FACTOR_CODE_INVALID",
        "this is not the current code of the authenticator app",
      );
    await trx
      .updateTable("console_users")
      .set({ totp_secret_sealed: sealed, totp_pending_secret_sealed: null, totp_last_step: step })
      .where("id", "=", actor.userId)
      .execute();
    const codes = await replaceRecoveryCodes(trx, ctx.runtime, actor.userId);
    await recordAudit(trx, actor, now, { action: "TWO_FACTOR_ENABLED", target: actor.email });
    return codes;
  });
}

/** Turns two-step sign-in off (409 while the merchant requires it); nothing happens when it is off. */
export async function disableTwoFactor(ctx: TwoFactorContext, actor: Self) {
  const now = ctx.runtime.now();
  await ctx.db.transaction().execute(async (trx) => {
    const merchant = await trx
      .selectFrom("merchants")
      .select("console_two_factor_required")
      .where("id", "=", actor.merchantId)
      .forShare()
      .executeTakeFirstOrThrow();
    if (merchant.console_two_factor_required)
      throw new ServiceError(
        "CONSOLE_TWO_FACTOR_MANDATORY",
        "the merchant requires two-step sign-in of everyone; an OWNER can lift the requirement",
      );
    const turnedOff = await trx
      .updateTable("console_users")
      .set({ totp_secret_sealed: null, totp_pending_secret_sealed: null, totp_last_step: null })
      .where("id", "=", actor.userId)
      .where("totp_secret_sealed", "is not", null)
      .executeTakeFirst();
    await trx.deleteFrom("console_recovery_codes").where("user_id", "=", actor.userId).execute();
    if (turnedOff.numUpdatedRows > 0n)
      await recordAudit(trx, actor, now, { action: "TWO_FACTOR_DISABLED", target: actor.email });
  });
  return { enabled: false, recoveryCodesLeft: 0 };
}

/** New recovery codes for a person with two-step sign-in (409 without it). */
export async function regenerateRecoveryCodes(ctx: TwoFactorContext, userId: string): Promise<string[]> {
  return ctx.db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom("console_users")
      .select("totp_secret_sealed")
      .where("id", "=", userId)
      .forUpdate()
      .executeTakeFirstOrThrow();
    if (row.totp_secret_sealed === null)
      throw new ServiceError("CONSOLE_TWO_FACTOR_NOT_ENABLED", "turn two-step sign-in on first");
    return replaceRecoveryCodes(trx, ctx.runtime, userId);
  });
}

/**
 * Whether `code` lets the person in: the authenticator's code of the current step (or the one before or after),
 * later than the last step accepted, or one of their unused recovery codes, which is then used up.
 */
export async function acceptSecondFactor(
  ctx: TwoFactorContext,
  person: { userId: string; sealedSecret: string },
  code: string,
): Promise<boolean> {
  const now = ctx.runtime.now();
  if (isRecoveryCode(code)) return useRecoveryCode(ctx.db, person.userId, code, now);
  const step = totpStep(ctx.secretBox.open(person.sealedSecret, sealedFor(person.userId)), code, now);
  if (step === undefined) return false;
  const accepted = await ctx.db
    .updateTable("console_users")
    .set({ totp_last_step: step })
    .where("id", "=", person.userId)
    .where((eb) => eb.or([eb("totp_last_step", "is", null), eb("totp_last_step", "<", step)]))
    .executeTakeFirst();
  return accepted.numUpdatedRows > 0n;
}

/**
 * Sets whether the merchant requires two-step sign-in of everyone; the OWNER who requires it must use it (409
 * CONSOLE_TWO_FACTOR_NOT_ENABLED otherwise).
 */
export async function setTwoFactorRequirement(
  ctx: TwoFactorContext,
  actor: AuditActor & { twoFactorEnabled: boolean; merchantName: string },
  required: boolean,
) {
  if (required && !actor.twoFactorEnabled)
    throw new ServiceError(
      "CONSOLE_TWO_FACTOR_NOT_ENABLED",
      "turn on your own two-step sign-in before requiring it of everyone",
    );
  const now = ctx.runtime.now();
  await ctx.db.transaction().execute(async (trx) => {
    const changed = await trx
      .updateTable("merchants")
      .set({ console_two_factor_required: required })
      .where("id", "=", actor.merchantId)
      .where("console_two_factor_required", "!=", required)
      .executeTakeFirst();
    if (changed.numUpdatedRows > 0n)
      await recordAudit(trx, actor, now, {
        action: "TWO_FACTOR_REQUIREMENT_SET",
        target: actor.merchantName,
        details: { required },
      });
  });
  return { twoFactorRequired: required };
}

/** Clears a person's two-step sign-in and recovery codes in `trx` (their removal). */
export async function clearTwoFactor(trx: Transaction<Database>, userId: string): Promise<void> {
  await trx
    .updateTable("console_users")
    .set({ totp_secret_sealed: null, totp_pending_secret_sealed: null, totp_last_step: null })
    .where("id", "=", userId)
    .execute();
  await trx.deleteFrom("console_recovery_codes").where("user_id", "=", userId).execute();
}
