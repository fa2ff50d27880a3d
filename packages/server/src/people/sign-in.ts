/**
 * `signIn` (email, password and, with two-step sign-in, a code) and `confirmPassword` (the password again, in a
 * session, before a change that hands out access). Each attempt is counted by the throttle before its password is
 * checked (sign-in-throttle.ts), and the checks run in an order that tells nothing to whoever lacks the password:
 * an unknown email, a removed person, a person without a password yet and a wrong password all answer the same 401
 * CONSOLE_SIGN_IN_FAILED after the same scrypt work; only the right password learns that the merchant is suspended
 * (403 TENANT_SUSPENDED) or that a code is needed (401 CONSOLE_SECOND_FACTOR_REQUIRED). A wrong code counts as a
 * failure. A sign-in whose hash was made with older scrypt parameters replaces it with one of today's.
 */
import type { Kysely } from "kysely";
import type { Database } from "../db/schema";
import { ServiceError } from "../errors";
import type { SecretBox } from "../keys/secret-box";
import type { Runtime } from "../runtime";
import type { PasswordHasher } from "./passwords";
import { admitAttempt, forgetPassedWindows, forgiveAttempt, throttleSubjects } from "./sign-in-throttle";
import { acceptSecondFactor } from "./two-factor";

/** What signing in needs: the database, the clock, the password hasher and the box of TOTP secrets. */
export interface SignInContext {
  db: Kysely<Database>;
  runtime: Runtime;
  passwords: PasswordHasher;
  secretBox: SecretBox;
}

const signInFailed = () => new ServiceError("CONSOLE_SIGN_IN_FAILED", "the email or the password is wrong");

/**
 * Counts the attempt, then checks `password` against the stored hash of the email's person (a decoy when there is
 * none): the person when it matches. An attempt that could not be checked (the hasher busy) is given back.
 */
async function checkPassword(ctx: SignInContext, email: string, password: string, clientAddress: string) {
  const { db, runtime, passwords } = ctx;
  const subjects = throttleSubjects(email, clientAddress);
  await admitAttempt(db, subjects, runtime.now());
  const person = await db
    .selectFrom("console_users as u")
    .innerJoin("merchants as m", "m.id", "u.merchant_id")
    .select(["u.id", "u.password_hash", "u.totp_secret_sealed", "m.status"])
    .where((eb) => eb(eb.fn("lower", ["u.email"]), "=", email.trim().toLowerCase()))
    .where("u.removed_at", "is", null)
    .executeTakeFirst();
  let verdict: Awaited<ReturnType<PasswordHasher["verify"]>>;
  try {
    verdict = await passwords.verify(password, person?.password_hash);
  } catch (error) {
    await forgiveAttempt(db, subjects, { signedIn: false });
    throw error;
  }
  if (person === undefined || !verdict.matches) {
    await forgetPassedWindows(db, runtime.now());
    throw signInFailed();
  }
  return { ...person, passwordHash: person.password_hash!, outdated: verdict.outdated, subjects };
}

/** Replaces a hash made with older parameters (unless the password changed meanwhile); skipped while hashing is busy. */
async function upgradeHash(ctx: SignInContext, userId: string, stored: string, password: string): Promise<void> {
  const upgraded = await ctx.passwords.hash(password).catch((error: unknown) => {
    if (error instanceof ServiceError && error.code === "CONSOLE_BUSY") return undefined;
    throw error;
  });
  if (upgraded === undefined) return;
  await ctx.db
    .updateTable("console_users")
    .set({ password_hash: upgraded })
    .where("id", "=", userId)
    .where("password_hash", "=", stored)
    .execute();
}

/** The id of the person these credentials are of, for the caller to start a session. */
export async function signIn(
  ctx: SignInContext,
  credentials: { email: string; password: string; code?: string },
  clientAddress: string,
): Promise<string> {
  const person = await checkPassword(ctx, credentials.email, credentials.password, clientAddress);
  if (person.status === "SUSPENDED")
    throw new ServiceError(
      "TENANT_SUSPENDED",
      "this merchant is suspended; its console opens again when the operator reactivates it",
    );
  if (person.totp_secret_sealed !== null) {
    if (credentials.code === undefined)
      throw new ServiceError(
        "CONSOLE_SECOND_FACTOR_REQUIRED",
        "enter the code of your authenticator app, or a recovery code",
      );
    const accepted = await acceptSecondFactor(
      ctx,
      { userId: person.id, sealedSecret: person.totp_secret_sealed },
      credentials.code,
    );
    if (!accepted) throw signInFailed();
  }
  await forgiveAttempt(ctx.db, person.subjects, { signedIn: true });
  if (person.outdated) await upgradeHash(ctx, person.id, person.passwordHash, credentials.password);
  return person.id;
}

/** confirmPassword: whether `password` is the signed-in person's; wrong is 401 CONSOLE_SIGN_IN_FAILED, throttled. */
export async function confirmPassword(
  ctx: SignInContext,
  person: { email: string },
  password: string,
  clientAddress: string,
): Promise<void> {
  try {
    const checked = await checkPassword(ctx, person.email, password, clientAddress);
    await forgiveAttempt(ctx.db, checked.subjects, { signedIn: true });
  } catch (error) {
    if (error instanceof ServiceError && error.code === "CONSOLE_SIGN_IN_FAILED")
      throw new ServiceError("CONSOLE_SIGN_IN_FAILED", "the password is wrong");
    throw error;
  }
}
