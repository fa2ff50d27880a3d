/**
 * Recovery codes of two-step sign-in: ten per person, each usable once at sign-in in place of the authenticator's
 * code. A code is 80 random bits in base32, written `xxxx-xxxx-xxxx-xxxx` in lower case; it is read back in either
 * case, with or without its dashes and spaces. Only a code's SHA-256 is stored (80 random bits need no slow hash),
 * and using one marks it used in the same statement that finds it, so two sign-ins never use one code twice.
 */
import { hash } from "node:crypto";
import type { Kysely, Transaction } from "kysely";
import { Secret } from "otpauth";
import type { Database } from "../db/schema";
import type { Runtime } from "../runtime";

export const RECOVERY_CODE_COUNT = 10;

/** A code as typed, reduced to what is stored: lower case, without dashes and spaces. */
function normalized(code: string): string {
  return code.toLowerCase().replace(/[\s-]/g, "");
}

const hashOf = (code: string) => hash("sha256", normalized(code), "hex");

/** Whether `code` has the shape of a recovery code (not the 6 digits of an authenticator app). */
export function isRecoveryCode(code: string): boolean {
  return /^[a-z2-7]{16}$/.test(normalized(code));
}

/** Replaces the person's codes with ten new ones, in `trx`: the codes, to show once. */
export async function replaceRecoveryCodes(
  trx: Transaction<Database>,
  runtime: Pick<Runtime, "randomBytes">,
  userId: string,
): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const bytes = runtime.randomBytes(10);
    const base32 = new Secret({ buffer: new Uint8Array(bytes).buffer }).base32.toLowerCase();
    return base32.match(/.{4}/g)!.join("-");
  });
  await trx.deleteFrom("console_recovery_codes").where("user_id", "=", userId).execute();
  await trx
    .insertInto("console_recovery_codes")
    .values(codes.map((code) => ({ user_id: userId, code_hash: hashOf(code), used_at: null })))
    .execute();
  return codes;
}

/** Uses up one unused code of the person; whether it was one. */
export async function useRecoveryCode(
  db: Kysely<Database>,
  userId: string,
  code: string,
  nowMs: number,
): Promise<boolean> {
  const used = await db
    .updateTable("console_recovery_codes")
    .set({ used_at: new Date(nowMs) })
    .where("user_id", "=", userId)
    .where("code_hash", "=", hashOf(code))
    .where("used_at", "is", null)
    .executeTakeFirst();
  return used.numUpdatedRows > 0n;
}

/** How many unused codes the person has. */
export async function recoveryCodesLeft(db: Kysely<Database>, userId: string): Promise<number> {
  const row = await db
    .selectFrom("console_recovery_codes")
    .select((eb) => eb.fn.countAll<string | number>().as("left"))
    .where("user_id", "=", userId)
    .where("used_at", "is", null)
    .executeTakeFirstOrThrow();
  return Number(row.left);
}
