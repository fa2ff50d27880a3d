/** The signed-in person as the console shows them (getMe), and their own settings. */
import type { Kysely } from "kysely";
import type { ConsoleLanguage, ConsoleRole, Database } from "../db/schema";
import { ServiceError } from "../errors";

export async function describePerson(db: Kysely<Database>, userId: string) {
  const row = await db
    .selectFrom("console_users as u")
    .innerJoin("merchants as m", "m.id", "u.merchant_id")
    .select(["u.id", "u.email", "u.role", "u.language", "m.id as merchant_id", "m.name"])
    .where("u.id", "=", userId)
    .executeTakeFirst();
  if (row === undefined) throw new ServiceError("CONSOLE_UNAUTHORIZED", "sign in to use the console");
  return {
    userId: row.id,
    email: row.email,
    role: row.role as ConsoleRole,
    language: row.language,
    merchant: { merchantId: row.merchant_id, name: row.name },
  };
}

export async function setLanguage(db: Kysely<Database>, userId: string, language: ConsoleLanguage | null) {
  await db.updateTable("console_users").set({ language }).where("id", "=", userId).execute();
}
