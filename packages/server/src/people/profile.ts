/** The signed-in person as the console shows them (getMe), and their own settings. */
import type { Kysely } from "kysely";
import type { ConsoleLanguage, ConsoleRole, Database } from "../db/schema";
import { ServiceError } from "../errors";
import { rfc3339 } from "../http/rfc3339";
import { recoveryCodesLeft } from "./recovery-codes";
import { recentSignInUntil } from "./sessions";

/**
 * The person, their merchant, their two-step sign-in and the merchant's requirement of it, and until when their
 * session (whose password was entered at `passwordEnteredAt`) may make changes that hand out access.
 */
export async function describePerson(db: Kysely<Database>, userId: string, passwordEnteredAt: number) {
  const row = await db
    .selectFrom("console_users as u")
    .innerJoin("merchants as m", "m.id", "u.merchant_id")
    .select([
      "u.id",
      "u.email",
      "u.role",
      "u.language",
      "u.totp_secret_sealed",
      "m.id as merchant_id",
      "m.name",
      "m.console_two_factor_required",
    ])
    .where("u.id", "=", userId)
    .where("u.removed_at", "is", null)
    .executeTakeFirst();
  if (row === undefined) throw new ServiceError("CONSOLE_UNAUTHORIZED", "sign in to use the console");
  const enabled = row.totp_secret_sealed !== null;
  return {
    userId: row.id,
    email: row.email,
    role: row.role as ConsoleRole,
    language: row.language,
    merchant: { merchantId: row.merchant_id, name: row.name },
    twoFactor: {
      enabled,
      required: row.console_two_factor_required,
      recoveryCodesLeft: enabled ? await recoveryCodesLeft(db, userId) : 0,
    },
    enrollmentRequired: row.console_two_factor_required && !enabled,
    recentSignInUntil: rfc3339(recentSignInUntil({ passwordEnteredAt })),
  };
}

export async function setLanguage(db: Kysely<Database>, userId: string, language: ConsoleLanguage | null) {
  await db.updateTable("console_users").set({ language }).where("id", "=", userId).execute();
}
