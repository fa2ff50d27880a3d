/**
 * `signIn`: email and password. An unknown email, a person without a password yet and a wrong password all
 * answer the same 401 CONSOLE_SIGN_IN_FAILED after the same scrypt work (a decoy hash), so the answer tells
 * nothing about which emails exist. Throttled per email and per address (sign-in-throttle.ts).
 */
import { ServiceError } from "../errors";
import type { ConsoleRequest } from "./context";
import { DECOY_PASSWORD_HASH, verifyPassword } from "./passwords";
import { startSession } from "./sessions";
import { checkThrottle, recordFailure, throttleSubjects } from "./sign-in-throttle";

export async function signIn(request: ConsoleRequest, email: string, password: string): Promise<string> {
  const { db, runtime } = request.services;
  const subjects = throttleSubjects(email, request.clientAddress);
  await checkThrottle(db, subjects, runtime.now());
  const user = await db
    .selectFrom("console_users")
    .select(["id", "password_hash"])
    .where((eb) => eb(eb.fn("lower", ["email"]), "=", email.trim().toLowerCase()))
    .executeTakeFirst();
  const matches = await verifyPassword(password, user?.password_hash ?? DECOY_PASSWORD_HASH);
  if (user === undefined || user.password_hash === null || !matches) {
    await recordFailure(db, subjects, runtime.now());
    throw new ServiceError("CONSOLE_SIGN_IN_FAILED", "the email or the password is wrong");
  }
  await startSession(request, user.id);
  return user.id;
}
